/**
 * Runs one tool for a CLI verb: `gortex call`, `analyze`, `clones`, `flow`, `taint` run a registry
 * tool (as an MCP client would be answered), `search`, `grep` and `query …` an engine query. Both go
 * through the daemon when one answers (or can be autostarted), so its warm graph is reused, and run
 * embedded in this process otherwise or with `--embedded`.
 */
import { CliUsageError } from './repo-root';

/** A tool's refusal: its code and message. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `registry`: a tool of the registry (validation as over MCP); `engine`: `Engine.query` directly. */
export type ToolDoor = 'registry' | 'engine';

/**
 * Runs `tool` on the repository containing `repoFlag` (or the working directory) and returns its
 * answer (without MCP `_meta`). Throws `ToolRefusal` for the tool's own errors.
 */
export async function runToolRaw(
  repoFlag: string | undefined,
  tool: string,
  args: Record<string, unknown>,
  options: { embedded?: boolean | undefined; door?: ToolDoor } = {},
): Promise<unknown> {
  const door = options.door ?? 'registry';
  if (!options.embedded) {
    const viaDaemon = await runThroughDaemon(repoFlag, tool, args, door);
    if (viaDaemon.served) return viaDaemon.answer;
  }
  if (door === 'engine') {
    const { openRepo } = await import('./open-repo');
    const { QueryError } = await import('../engine/query');
    const { engine, root } = await openRepo(repoFlag);
    try {
      return engine.query(tool, args, { repo: root });
    } catch (error) {
      if (error instanceof QueryError) throw new ToolRefusal(error.code, error.message);
      throw error;
    }
  }
  const { openEmbedded } = await import('../mcp/embedded');
  const { callTool, ToolCallError } = await import('../tools/dispatch');
  const { ResultWithMeta } = await import('../tools/registry');
  const { ALL_TOOLS } = await import('../tools/index');
  const repo = await openEmbedded(repoFlag, { watch: false });
  try {
    const answer = await callTool(await repo.context(), tool, args, ALL_TOOLS);
    return answer instanceof ResultWithMeta ? answer.result : answer;
  } catch (error) {
    if (error instanceof ToolCallError) throw new ToolRefusal(error.code, error.message);
    throw error;
  } finally {
    repo.close();
  }
}

/** As `runToolRaw` (registry door), with refusals other than internal errors turned into usage errors (exit 2) reading `code: message`. */
export async function runToolEmbedded(repoFlag: string | undefined, tool: string, args: Record<string, unknown>, options: { embedded?: boolean | undefined } = {}): Promise<unknown> {
  try {
    return await runToolRaw(repoFlag, tool, args, options);
  } catch (error) {
    if (error instanceof ToolRefusal && error.code !== 'internal') throw new CliUsageError(`${error.code}: ${error.message}`);
    if (error instanceof ToolRefusal) throw new Error(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** One `query`/`call` control request; `served: false` when no daemon is available. */
async function runThroughDaemon(repoFlag: string | undefined, tool: string, args: Record<string, unknown>, door: ToolDoor): Promise<{ served: boolean; answer?: unknown }> {
  const { resolveRepoRoot } = await import('./repo-root');
  const { daemonPaths } = await import('../daemon/paths');
  const { controlRequest, ensureDaemon, DaemonUnavailableError } = await import('../daemon/client');
  const cwd = resolveRepoRoot(repoFlag);
  const paths = daemonPaths();
  const note = (message: string): void => void process.stderr.write(`gortex: ${message}\n`);
  try {
    if (!(await ensureDaemon(paths, note))) return { served: false };
  } catch (error) {
    note(`no daemon could start (${(error as Error).message}); running in this process`);
    return { served: false };
  }
  let answer;
  try {
    answer = await controlRequest(paths, { kind: door === 'engine' ? 'query' : 'call', params: { cwd, tool, args } });
  } catch (error) {
    if (error instanceof DaemonUnavailableError) return { served: false };
    throw error;
  }
  if (!answer.ok) throw new ToolRefusal(answer.error_code ?? 'internal', answer.error_msg ?? 'the daemon gave no reason');
  return { served: true, answer: answer.result };
}
