/**
 * The push channels besides diagnostics, through real MCP sessions: `graph_invalidated` after a
 * rebuild, `stale_refs` only for what the session read (a symbol's own change, a removal, a file),
 * `daemon_health` on a ticker that stops with unsubscribe, `workspace_readiness` replayed and
 * followed through a daemon's warm-up; delivered over an in-process server, `gortex mcp` stdio,
 * the daemon socket and the `/mcp` GET stream, and ended when a session closes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callJson, collect, okJson, serveEmbedded, until } from './helpers/mcp';
import { gitRepo, useTempHome } from './helpers/repo';
import { daemonWorld } from './helpers/daemon';
import { runCli } from './helpers/cli';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { SessionChannels } from '../ts/workspace/channels';
import { packageRoot } from '../ts/support/package-root';

interface Note {
  method: string;
  params: any;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const of = (seen: Note[], method: string): Note[] => seen.filter((n) => n.method === `notifications/${method}`);

const PARSE = 'export function parse(text: string): number {\n  return text.length;\n}\n';
const FORMAT = 'export function format(n: number): string {\n  return String(n);\n}\n';

describe('push channels of an embedded session', () => {
  useTempHome();
  let root: string;
  let repo: EmbeddedRepo;
  let client: Client;
  let seen: Note[];

  beforeAll(async () => {
    root = gitRepo('channels-embedded', { 'src/text.ts': PARSE + FORMAT, 'src/other.ts': 'export const other = 1;\n', 'src/notes.ts': 'export const note = "a";\n' });
    repo = await openEmbedded(root, { watch: true });
    client = await serveEmbedded(repo);
    seen = collect(client);
  });

  afterAll(async () => {
    await client.close();
    repo.close();
  });

  /** Writes a file and waits for the rebuild it causes (heard on graph_invalidated). */
  async function change(rel: string, text: string | null): Promise<Note> {
    const before = of(seen, 'graph_invalidated').length;
    if (text === null) fs.rmSync(path.join(root, rel));
    else fs.writeFileSync(path.join(root, rel), text);
    return until(`the rebuild after ${rel}`, () => of(seen, 'graph_invalidated')[before]);
  }

  it('replays readiness and reports graph rebuilds with their sizes and cause', async () => {
    const ready = await okJson(client, 'subscribe_workspace_readiness', {});
    expect(ready).toMatchObject({ subscribed: 'workspace_readiness', replayed: 1, repos: [{ phase: 'ready' }] });
    const replay = await until('the replayed phase', () => of(seen, 'workspace_readiness')[0]);
    expect(replay.params).toMatchObject({ root, phase: 'ready', all_ready: true });

    expect(await okJson(client, 'subscribe_graph_invalidated', {})).toMatchObject({ subscribed: 'graph_invalidated', channels: ['graph_invalidated', 'workspace_readiness'] });
    const rebuilt = await change('src/added.ts', 'export function added(): void {}\nexport function more(): void {}\n');
    const stats = await okJson(client, 'graph_stats', {});
    expect(rebuilt.params).toMatchObject({ root, reason: 'watcher', files_changed: 1, node_count: stats.nodes, edge_count: stats.edges });
    expect(rebuilt.params.node_count).toBeGreaterThan(rebuilt.params.nodes_before);
    expect(typeof rebuilt.params.ts).toBe('number');
  });

  it('pushes stale_refs only for what the session read, and only when it changed', async () => {
    const found = await okJson(client, 'search_symbols', { query: 'parse' });
    const parseId: string = found.results.find((r: any) => r.name === 'parse').id;
    await okJson(client, 'get_symbol_source', { id: parseId });
    await okJson(client, 'read_file', { path: 'src/notes.ts' });
    const sub = await okJson(client, 'subscribe_stale_refs', {});
    expect(sub).toMatchObject({ subscribed: 'stale_refs', working_set: 2 });

    // Another symbol of the same file, and a file never read: rebuilds, but not this session's news.
    await change('src/text.ts', PARSE + FORMAT.replace('String(n)', '`${n}`'));
    await change('src/other.ts', 'export const other = 2;\n');
    await sleep(300);
    expect(of(seen, 'stale_refs')).toEqual([]);

    // The body it read changes.
    await change('src/text.ts', PARSE.replace('text.length', 'text.trim().length') + FORMAT);
    const modified = await until('stale_refs for parse', () => of(seen, 'stale_refs')[0]);
    expect(modified.params).toMatchObject({ root, reason: 'watcher', files: ['src/text.ts'], refs: [{ kind: 'symbol', id: parseId, path: 'src/text.ts', via: 'viewed', change: 'modified', line: 1, end_line: 3 }] });

    // The file it read, then the symbol removed.
    await change('src/notes.ts', 'export const note = "b";\n');
    const file = await until('stale_refs for notes.ts', () => of(seen, 'stale_refs')[1]);
    expect(file.params.refs).toEqual([{ kind: 'file', path: 'src/notes.ts', via: 'viewed', change: 'modified' }]);
    await change('src/text.ts', FORMAT);
    const removed = await until('stale_refs for the removal', () => of(seen, 'stale_refs')[2]);
    expect(removed.params.refs).toEqual([{ kind: 'symbol', id: parseId, path: 'src/text.ts', via: 'viewed', change: 'removed' }]);

    // Unsubscribed: changes go unheard; unsubscribing again is not an error.
    expect(await okJson(client, 'unsubscribe_stale_refs', {})).toMatchObject({ unsubscribed: true });
    expect(await okJson(client, 'unsubscribe_stale_refs', {})).toMatchObject({ unsubscribed: false });
    await change('src/notes.ts', 'export const note = "c";\n');
    await sleep(300);
    expect(of(seen, 'stale_refs')).toHaveLength(3);
  });

  it('ticks daemon_health while subscribed and stops on unsubscribe', async () => {
    const sub = await okJson(client, 'subscribe_daemon_health', { interval_ms: 5 });
    expect(sub).toMatchObject({ subscribed: 'daemon_health', interval_ms: 1000 });
    expect(sub.note).toMatch(/clamped to 1000/);
    const second = await until('two health snapshots', () => of(seen, 'daemon_health')[1], 5000);
    expect(second.params).toMatchObject({ host: 'embedded', interval_ms: 1000, tracked_repos: 1, ready_repos: 1, repos: [{ root, phase: 'ready' }] });
    expect(second.params.rss_bytes).toBeGreaterThan(0);
    expect(second.params.nodes).toBeGreaterThan(0);
    expect(second.params.subscriptions).toBeGreaterThanOrEqual(3);
    expect(await okJson(client, 'unsubscribe_daemon_health', {})).toMatchObject({ unsubscribed: true });
    const count = of(seen, 'daemon_health').length;
    await sleep(1500);
    expect(of(seen, 'daemon_health')).toHaveLength(count);
  });

  it('refuses bad input with what to fix', async () => {
    expect((await callJson(client, 'subscribe_daemon_health', { interval_ms: 'often' })).text).toMatch(/^invalid_argument: .*interval_ms/);
    expect((await callJson(client, 'session', { operation: 'subscribe', channel: 'weather' })).text).toMatch(
      /^invalid_argument: session\.subscribe needs channel: one of daemon_health, diagnostics, graph_invalidated, stale_refs, workspace_readiness/,
    );
  });

  it('ends every channel when the session closes', async () => {
    const other = await serveEmbedded(repo);
    await okJson(other, 'subscribe_graph_invalidated', {});
    await okJson(other, 'subscribe_daemon_health', { interval_ms: 60_000 });
    const open = SessionChannels.census();
    await other.close();
    const after = await until('the closed session to be gone', () => {
      const now = SessionChannels.census();
      return now.sessions < open.sessions ? now : undefined;
    });
    expect(open.subscriptions - after.subscriptions).toBe(2);
  });
});

describe('push channels through the daemon: socket and /mcp', () => {
  const { env } = daemonWorld();
  const first = gitRepo('channels-daemon', { 'src/a.ts': PARSE });
  const second = gitRepo('channels-later', { 'src/b.ts': FORMAT });
  const clients: Client[] = [];
  let url: string;

  beforeAll(async () => {
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0', '--tools', 'full'], { env: { ...env, GORTEX_TEST_HOOKS: '1', GORTEX_TEST_SLOW_OPEN: '400' }, cwd: first });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    url = await until('the daemon to be ready', () => {
      const status = runCli(['daemon', 'status', '--json'], { env });
      const parsed = status.status === 0 ? (JSON.parse(status.stdout) as { repos: { phase: string }[]; http?: { url: string } }) : undefined;
      return parsed && parsed.repos.length > 0 && parsed.repos.every((r) => r.phase === 'ready') ? parsed.http?.url : undefined;
    });
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env });
  });

  async function socketClient(): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(packageRoot(), 'bin', 'run.js'), 'mcp', '--repo', first], env, stderr: 'pipe' });
    const client = new Client({ name: 'channels-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('follows a repository tracked later through its warm-up over the socket', async () => {
    const client = await socketClient();
    const seen = collect(client);
    const sub = await okJson(client, 'subscribe_workspace_readiness', {});
    expect(sub.repos).toEqual([{ repo: 'channels-daemon', phase: 'ready' }]);
    await okJson(client, 'track_repository', { path: second });
    const ready = await until('the second repository ready', () => of(seen, 'workspace_readiness').find((n) => n.params.root === second && n.params.phase === 'ready'));
    expect(ready.params.all_ready).toBe(true);
    const phases = of(seen, 'workspace_readiness').filter((n) => n.params.root === second).map((n) => n.params.phase);
    // Every phase once, in order (parse and resolve may pass between two progress ticks on a two-file repository).
    expect(phases[0]).toBe('snapshot_loaded');
    expect(phases.slice(-2)).toEqual(['watcher_started', 'ready']);
    expect(new Set(phases).size).toBe(phases.length);
    const health = await okJson(client, 'subscribe_daemon_health', { interval_ms: 60_000 });
    expect(health.interval_ms).toBe(60_000);
    const snapshot = await until('a daemon snapshot', () => of(seen, 'daemon_health')[0]);
    expect(snapshot.params).toMatchObject({ host: 'daemon', tracked_repos: 2, ready_repos: 2 });
  });

  it('delivers graph_invalidated on the /mcp GET stream, and stops after the session ends', async () => {
    const http = new Client({ name: 'channels-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
    await http.connect(transport);
    const seen = collect(http);
    await okJson(http, 'subscribe_graph_invalidated', {});
    const watcher = await socketClient();
    const watched = collect(watcher);
    await okJson(watcher, 'subscribe_daemon_health', { interval_ms: 60_000 });
    const before = await until('a snapshot', () => of(watched, 'daemon_health')[0]);
    fs.writeFileSync(path.join(first, 'src/c.ts'), 'export const c = 3;\n');
    const event = await until('graph_invalidated over /mcp', () => of(seen, 'graph_invalidated')[0]);
    expect(event.params).toMatchObject({ repo: 'channels-daemon', root: first, reason: 'watcher', files_changed: 1 });
    await transport.terminateSession();
    await http.close();
    // The DELETE closed the session: the daemon counts one subscription fewer.
    await okJson(watcher, 'subscribe_daemon_health', { interval_ms: 60_000 });
    const after = await until('a snapshot after the close', () => of(watched, 'daemon_health')[1]);
    expect(after.params.subscriptions).toBe(before.params.subscriptions - 1);
  });
});
