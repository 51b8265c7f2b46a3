/**
 * Bounds on what one inbound MCP message may be on a line-framed transport: a message too big is
 * refused with an error naming the limit before anything parses it. (The nesting bound every door
 * shares is `ts/support/json-depth.ts`.)
 */

/**
 * Largest MCP message on a line-framed transport (stdio, the daemon's socket), newline excluded.
 * The SDK's stdio transport had the same cap but closed the session when it was passed; here the
 * message is skipped to its newline and answered with an error (`line-transport.ts`).
 */
export const MAX_LINE_MESSAGE_BYTES = 10 * 1024 * 1024;

/** `10 MiB`-style text of a byte count. */
export function byteSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
