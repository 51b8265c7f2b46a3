/** Serving an MCP server over a byte-stream pair: the process's stdio, or a daemon session's socket. */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LineTransport } from './line-transport';

/** An MCP server as the other layers hold it (created by `createMcpServer`; `close()` ends it). */
export type McpServer = Server;

/** Options of `serveOverStreams`. */
export interface ServeOptions {
  /** Where refused messages are reported; default stderr, as `gortex mcp: …` lines. */
  log?: (message: string) => void;
}

/**
 * Connects `server` to `input`/`output` (default stdin/stdout) through a `LineTransport` (a size
 * cap per message, an error answer to every malformed line, bounded work). Resolves once
 * connected, with `closed`: settled when the transport closes or the input ends.
 */
export async function serveOverStreams(server: McpServer, input?: Readable, output?: Writable, options: ServeOptions = {}): Promise<{ closed: Promise<void> }> {
  const streams = input && output ? { input, output } : { input: process.stdin, output: process.stdout };
  const log = options.log ?? ((message: string): void => void process.stderr.write(`gortex mcp: ${message}\n`));
  const transport = new LineTransport(streams.input, streams.output, { log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    streams.input.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed };
}
