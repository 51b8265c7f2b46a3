/**
 * Bounds on what one inbound JSON message may be, shared by the MCP doors (stdio, the daemon's
 * socket, `/mcp`) and `POST /v1/tools/{name}`: a message too big or nested too deep is refused with
 * an error naming the limit before anything parses, validates or recurses over it.
 */

/**
 * Largest MCP message on a line-framed transport (stdio, the daemon's socket), newline excluded.
 * The SDK's stdio transport had the same cap but closed the session when it was passed; here the
 * message is skipped to its newline and answered with an error (`line-transport.ts`).
 */
export const MAX_LINE_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects in one inbound JSON message or request body (a scalar is
 * depth 0, `{}` depth 1). Handlers, validation and serialisation recurse over arguments; a
 * 100,000-deep value would exhaust the stack. The JSON-RPC envelope takes three of these levels
 * (`{params: {arguments: {…}}}`).
 */
export const MAX_JSON_DEPTH = 512;

/** `10 MiB`-style text of a byte count. */
export function byteSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

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
