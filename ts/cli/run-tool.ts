/**
 * Runs one tool for a CLI verb (`gortex call`, `analyze`, `clones`, `flow`, `taint`, `search`,
 * `grep`, `query …`) through the call pipeline, as any other door: through the daemon when one
 * answers (or can be autostarted), so its warm graph is reused, and in this process otherwise or
 * with `--embedded`.
 */
import type { CallFormat, CallOutcome, CallSuccess } from '../calls/pipeline';
import { UsageError } from '../support/usage-error';

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

/** Where a CLI call runs and how it is written. */
export interface CliCallOptions {
  /** Answer in this process instead of asking the daemon. */
  embedded?: boolean | undefined;
  /** The format flag (`--format`); a `format` argument wins over it. */
  format?: CallFormat | undefined;
}

/** Runs `tool` on the repository containing `repoFlag` (or the working directory) and returns the pipeline's outcome. */
export async function runCall(repoFlag: string | undefined, tool: string, args: Record<string, unknown>, options: CliCallOptions = {}): Promise<CallOutcome> {
  const request = { tool, args, ...(options.format ? { format: options.format } : {}) };
  if (!options.embedded) {
    const viaDaemon = await runThroughDaemon(repoFlag, request);
    if (viaDaemon) return viaDaemon;
  }
  const { openEmbedded, embeddedWorkspace } = await import('../workspace/embedded');
  const { CallPipeline } = await import('../calls/pipeline');
  const repo = await openEmbedded(repoFlag, { watch: false });
  try {
    return await new CallPipeline().call(request, { context: () => repo.context(), workspace: embeddedWorkspace(repo) });
  } finally {
    repo.close();
  }
}

/** The outcome's answer, or a `ToolRefusal` carrying its failure. */
export function answerOf(outcome: CallOutcome): CallSuccess {
  if (!outcome.ok) throw new ToolRefusal(outcome.code, outcome.message);
  return outcome;
}

/**
 * Runs `tool` and returns its answer as a value (the parsed JSON; the CLI renderers read it).
 * Failures become usage errors (exit 2, `code: message`) unless they are internal (exit 1).
 */
export async function runToolValue(repoFlag: string | undefined, tool: string, args: Record<string, unknown>, options: { embedded?: boolean | undefined } = {}): Promise<unknown> {
  const outcome = await runCall(repoFlag, tool, args, { ...options, format: 'json' });
  if (!outcome.ok) throw refusalError(outcome.code, outcome.message);
  const value = JSON.parse(outcome.text) as { _ignored_options?: string[] } | null;
  // A verb renders the answer, where an ignored option would go unseen: it is the user's mistake to fix.
  const ignored = value?._ignored_options;
  if (Array.isArray(ignored) && ignored.length > 0) {
    const { findTool } = await import('../calls/surface');
    const accepted = Object.keys(findTool(tool)?.input ?? {}).join(', ') || 'none';
    throw new UsageError(`${tool}: unknown argument${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')}; accepted: ${accepted}`);
  }
  return value;
}

/** The CLI error of a failed call: a usage error (exit 2) unless the failure is internal. */
export function refusalError(code: string, message: string): Error {
  return code === 'internal' ? new Error(`${code}: ${message}`) : new UsageError(`${code}: ${message}`);
}

/** One `call` control request; undefined when no daemon is available. */
async function runThroughDaemon(repoFlag: string | undefined, request: { tool: string; args: Record<string, unknown>; format?: CallFormat }): Promise<CallOutcome | undefined> {
  const { resolveRepoRoot } = await import('../support/repo-root');
  const { daemonPaths } = await import('../daemon/paths');
  const { controlRequest, ensureDaemon, DaemonUnavailableError } = await import('../daemon/client');
  const cwd = resolveRepoRoot(repoFlag);
  const paths = daemonPaths();
  const note = (message: string): void => void process.stderr.write(`gortex: ${message}\n`);
  try {
    if (!(await ensureDaemon(paths, note))) return undefined;
  } catch (error) {
    note(`no daemon could start (${(error as Error).message}); running in this process`);
    return undefined;
  }
  let answer;
  try {
    answer = await controlRequest(paths, { kind: 'call', params: { cwd, ...request } });
  } catch (error) {
    if (error instanceof DaemonUnavailableError) return undefined;
    throw error;
  }
  if (!answer.ok) return { ok: false, tool: request.tool, code: answer.error_code ?? 'internal', message: answer.error_msg ?? 'the daemon gave no reason', meta: {} };
  return answer.result as CallOutcome;
}
