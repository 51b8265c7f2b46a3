/**
 * The nesting bound of inbound JSON, shared by every door (the MCP transports, `POST /v1/tools`, and
 * the call pipeline itself for arguments that arrive parsed: the CLI's `--json-args`, the daemon's
 * control requests): a value nested too deep is refused before anything recurses over it.
 */

/**
 * Deepest nesting of arrays and objects in one inbound JSON message or request body (a scalar is
 * depth 0, `{}` depth 1). Handlers, validation and serialisation recurse over arguments; a
 * 100,000-deep value would exhaust the stack. The JSON-RPC envelope takes three of these levels
 * (`{params: {arguments: {…}}}`).
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether `value` nests arrays/objects deeper than `limit` levels. Walks with an explicit stack (no
 * recursion, so it is safe on any value `JSON.parse` returns) and stops at the first level past the
 * limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The message of a refusal for nesting past `MAX_JSON_DEPTH` (`what`: "the message", "the request body"…). */
export function tooDeepMessage(what: string): string {
  return `${what} nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels, the limit; send flatter arguments`;
}
