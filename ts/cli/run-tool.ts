/** Runs one registry tool on the embedded repository, as `gortex call` and the analysis verbs do. */
import { CliUsageError } from './repo-root';

/**
 * Opens the repository containing `repoFlag` (or the working directory) without a watcher, runs
 * `tool` through the registry and returns its answer (without MCP `_meta`). Refusals other than
 * internal errors become usage errors (exit code 2) carrying the tool's code and message.
 */
export async function runToolEmbedded(repoFlag: string | undefined, tool: string, args: Record<string, unknown>): Promise<unknown> {
  const { openEmbedded } = await import('../mcp/embedded');
  const { callTool, ToolCallError } = await import('../tools/dispatch');
  const { ResultWithMeta } = await import('../tools/registry');
  const repo = await openEmbedded(repoFlag, { watch: false });
  try {
    const answer = await callTool(await repo.context(), tool, args);
    return answer instanceof ResultWithMeta ? answer.result : answer;
  } catch (error) {
    if (error instanceof ToolCallError && error.code !== 'internal') throw new CliUsageError(`${error.code}: ${error.message}`);
    throw error;
  } finally {
    repo.close();
  }
}
