/** The pipeline's bounds: how long one call may run and how many run at once. */

/** Default bound of one tool call. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Default and ceiling of concurrent tool dispatches. */
const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;

/** A counting semaphore: at most `size` holders; others wait in order. */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** A server setting from the environment that cannot be honoured. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}

/** `60s`, `1500ms`, `2m`, a bare number of milliseconds, or `off` (no bound). */
export function parseDuration(text: string, what: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0') return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(t);
  if (!m) throw new Error(`${what} must be a duration like 60s, 1500ms, 2m or off, got ${JSON.stringify(text)}`);
  const n = Number(m[1]);
  return Math.round(m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n);
}

/** The bounds of one pipeline. */
export interface CallLimits {
  /** Per-call bound in milliseconds (undefined: none). */
  timeoutMs: number | undefined;
  /** Most dispatches running at once. */
  concurrency: number;
}

/** The call bound (`GORTEX_MCP_TOOL_TIMEOUT`; `off` = none) and dispatch limit (`GORTEX_MCP_MAX_CONCURRENT_DISPATCHES`), checked. */
export function serverLimits(env: NodeJS.ProcessEnv = process.env): CallLimits {
  const timeoutText = env.GORTEX_MCP_TOOL_TIMEOUT;
  let timeoutMs: number | undefined = DEFAULT_TIMEOUT_MS;
  if (timeoutText !== undefined) {
    try {
      timeoutMs = parseDuration(timeoutText, 'GORTEX_MCP_TOOL_TIMEOUT');
    } catch (error) {
      throw new ServerConfigError((error as Error).message);
    }
  }
  const concurrencyText = env.GORTEX_MCP_MAX_CONCURRENT_DISPATCHES;
  const concurrency = concurrencyText === undefined ? DEFAULT_CONCURRENCY : Number(concurrencyText);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new ServerConfigError(`GORTEX_MCP_MAX_CONCURRENT_DISPATCHES must be 1..${MAX_CONCURRENCY}, got ${JSON.stringify(concurrencyText)}`);
  }
  return { timeoutMs, concurrency };
}
