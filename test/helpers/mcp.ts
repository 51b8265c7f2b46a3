/** The real MCP server over an embedded repository, linked in process to an SDK client; or over stdio. */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../ts/mcp/server';
import { embeddedWorkspace, openEmbedded, type EmbeddedRepo } from '../../ts/workspace/embedded';
import { embeddedPushSources } from '../../ts/workspace/push-sources';
import { PACKAGE_ROOT } from './cli';
import { tempHome } from './repo';

/** A client of a real `gortex mcp --embedded` child over stdio on `root` with the `tools` surface (`''`: no --tools flag; own GORTEX_HOME; `extraEnv` on top). */
export async function startStdio(root: string, tools: string, extraEnv: Record<string, string> = {}): Promise<Client> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: tempHome(), GORTEX_THREADS: '2', ...extraEnv };
  delete env.NODE_ENV;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--embedded', '--repo', root, ...(tools === '' ? [] : ['--tools', tools])],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'gortex-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A connected client of a fresh server over `repo` with the `tools` surface (default `full`). */
export async function serveEmbedded(repo: EmbeddedRepo, tools = 'full'): Promise<Client> {
  const server = createMcpServer(repo, { workspace: embeddedWorkspace(repo), push: embeddedPushSources(repo), env: {}, tools });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'gortex-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A tool's answer in JSON: `isError`, the parsed body (when it is JSON) and the raw text. */
export async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any; text: string }> {
  const result = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
  const text = result.content[0]!.text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { isError: result.isError === true, body, text };
}

/** A tool's parsed JSON answer; a refusal throws with its text. */
export async function okJson(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await callJson(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.text}`);
  return r.body;
}

/**
 * For the enclosing `describe`: `serve(root)` opens `root` as an embedded repository (no watcher)
 * and connects a client to a fresh server over it; everything opened is closed after the block.
 */
export function useEmbeddedServers(): (root: string) => Promise<Client> {
  const opened: EmbeddedRepo[] = [];
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const r of opened) await r.close();
  });
  return async (root) => {
    const repo = await openEmbedded(root, { watch: false });
    opened.push(repo);
    const client = await serveEmbedded(repo);
    clients.push(client);
    return client;
  };
}

/** Collects the custom notifications (`notifications/diagnostics`, …) a client receives, in order. */
export function collect<T = { method: string; params: any }>(client: Client): T[] {
  const seen: T[] = [];
  client.fallbackNotificationHandler = async (n) => {
    seen.push(n as unknown as T);
  };
  return seen;
}

/** Polls `probe` every 50 ms until it gives a value; throws naming `what` after `ms`. */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
