/** Serving an MCP server over a byte-stream pair: the process's stdio, or a daemon session's socket. */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** An MCP server as the other layers hold it (created by `createMcpServer`; `close()` ends it). */
export type McpServer = Server;

/**
 * Connects `server` to `input`/`output` (default stdin/stdout). Resolves once connected, with
 * `closed`: settled when the transport closes or the input ends.
 */
export async function serveOverStreams(server: McpServer, input?: Readable, output?: Writable): Promise<{ closed: Promise<void> }> {
  const transport = input && output ? new StdioServerTransport(input, output) : new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    (input ?? process.stdin).once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed };
}
