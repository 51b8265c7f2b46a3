/** Tool arguments from the command line: `--json-args '{…}'` merged under repeated `--arg key=value`. */
import { UsageError } from '../support/usage-error';

/**
 * Builds a tool's argument object. `--arg` values that parse as JSON (numbers, booleans, arrays)
 * are taken as JSON, anything else as a string; `--arg` keys override `--json-args` keys.
 */
export function toolArgsFromFlags(jsonArgs: string | undefined, pairs: readonly string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (jsonArgs !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(jsonArgs);
    } catch (error) {
      throw new UsageError(`--json-args is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('--json-args must be a JSON object, e.g. {"id":"Store.save"}');
    }
    Object.assign(out, parsed);
  }
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--arg ${JSON.stringify(pair)} must look like key=value`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a plain string */
    }
    out[pair.slice(0, eq)] = value;
  }
  return out;
}
