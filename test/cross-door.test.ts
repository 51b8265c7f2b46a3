/**
 * One call pipeline behind every door: the same calls — plain, budgeted and paged by cursor,
 * scoped, a compact (facade) operation, GCX1, a bad argument, an unknown tool, an operation that
 * is not built, a bad scope — answered through MCP stdio (embedded), the daemon socket (the
 * `gortex mcp` proxy), Streamable HTTP `/mcp`, `POST /v1/tools/{name}`, `gortex call` through the
 * daemon and `gortex call --embedded`, and every door must give the same answer.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PACKAGE_ROOT, runCli, unwrapCliError } from './helpers/cli';
import { daemonWorld, gitFixture } from './helpers/daemon';

/** A door's answer reduced to what every door can say: the answer's text, or the failure's code and message. */
type Answer = { ok: true; text: string } | { ok: false; code: string; message: string };

/** A door: a name and how it answers one call (`args` may carry the pipeline's options). */
interface Door {
  name: string;
  call(tool: string, args: Record<string, unknown>): Promise<Answer>;
}

/** JSON answers compared as values (a door may indent), GCX1 as text. */
function canonical(text: string): string {
  const trimmed = text.replace(/\n+$/, '');
  if (trimmed.startsWith('GCX1')) return trimmed;
  return JSON.stringify(JSON.parse(trimmed));
}

/** `code: message` (MCP text, CLI stderr) as an Answer. */
function failed(text: string): Answer {
  const m = /^([a-z_]+): ([\s\S]*)$/.exec(text.trim());
  return m ? { ok: false, code: m[1]!, message: m[2]!.trim() } : { ok: false, code: 'unparsed', message: text };
}

/** An MCP client's door. */
function mcpDoor(name: string, client: Client): Door {
  return {
    name,
    async call(tool, args) {
      const result = (await client.callTool({ name: tool, arguments: { format: 'json', ...args } })) as { isError?: boolean; content: { text: string }[] };
      const text = result.content.map((c) => c.text).join('');
      return result.isError ? failed(text) : { ok: true, text: canonical(text) };
    },
  };
}

/** A `gortex call` door (through the daemon, or embedded). */
function cliDoor(name: string, env: Record<string, string>, repo: string, extra: string[]): Door {
  return {
    name,
    async call(tool, args) {
      const r = runCli(['call', tool, '--json-args', JSON.stringify({ format: 'json', ...args }), '--repo', repo, ...extra], { env });
      if (r.status === 0) return { ok: true, text: canonical(r.stdout) };
      return failed(unwrapCliError(r.stderr));
    },
  };
}

/** The `POST /v1/tools/{name}` door. */
function v1Door(url: string): Door {
  return {
    name: 'http /v1',
    async call(tool, args) {
      const response = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
      const body = (await response.json()) as { isError?: boolean; content?: { type: string; text: string }[]; error?: string; message?: string };
      // A request the HTTP layer refuses before any tool runs is a plain HTTP error.
      if (body.content === undefined) return { ok: false, code: body.error ?? 'unparsed', message: body.message ?? '' };
      // Every tool outcome is the MCP `CallToolResult` the MCP doors give, its status by outcome.
      const text = body.content.map((c) => c.text).join('');
      expect(response.ok).toBe(body.isError !== true);
      return body.isError ? failed(text) : { ok: true, text: canonical(text) };
    },
  };
}

/** The next-page cursor of a paged answer. */
function cursorOf(answer: Answer): string {
  if (!answer.ok) throw new Error(`expected a paged answer, got ${answer.code}: ${answer.message}`);
  const page = (JSON.parse(answer.text) as { _page?: { next_cursor?: string } })._page;
  if (!page?.next_cursor) throw new Error(`expected a next_cursor in ${answer.text.slice(0, 300)}`);
  return page.next_cursor;
}

describe('every door answers through one call pipeline', () => {
  const { env } = daemonWorld();
  const repo = gitFixture('query/app-ts', 'doorapp');
  const doors: Door[] = [];
  const clients: Client[] = [];
  let httpTransport: StreamableHTTPClientTransport;
  let v1Url: string;

  beforeAll(async () => {
    // Every MCP session runs the full surface (defer mode), the same surface /v1 and the CLI serve.
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0', '--tools', 'full'], { env, cwd: repo });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    let url: string | undefined;
    for (let i = 0; i < 200 && url === undefined; i++) {
      const status = runCli(['daemon', 'status', '--json'], { env });
      const parsed = status.status === 0 ? (JSON.parse(status.stdout) as { repos: { phase: string }[]; http?: { url: string } }) : undefined;
      if (parsed && parsed.repos.length > 0 && parsed.repos.every((r) => r.phase === 'ready')) url = parsed.http?.url;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (url === undefined) throw new Error('the daemon never became ready');
    const stdio = async (extra: string[]): Promise<Client> => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', repo, '--tools', 'full', ...extra], env, stderr: 'pipe' });
      const client = new Client({ name: 'cross-door-test', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    };
    const http = new Client({ name: 'cross-door-test', version: '1.0.0' });
    httpTransport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
    await http.connect(httpTransport);
    v1Url = url;
    clients.push(http);
    doors.push(
      mcpDoor('mcp stdio (embedded)', await stdio(['--embedded'])),
      mcpDoor('mcp daemon socket', await stdio([])),
      mcpDoor('mcp streamable http', http),
      v1Door(url),
      cliDoor('gortex call (daemon)', env, repo, []),
      cliDoor('gortex call --embedded', env, repo, ['--embedded']),
    );
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env });
  });

  /** Runs one call through every door and checks the answers are the same; returns the first. */
  async function sameEverywhere(tool: string, args: Record<string, unknown>): Promise<Answer> {
    const answers = await Promise.all(doors.map(async (door) => ({ door: door.name, answer: await door.call(tool, args) })));
    const first = answers[0]!.answer;
    for (const { door, answer } of answers.slice(1)) {
      expect({ door, answer }).toEqual({ door, answer: first });
    }
    return first;
  }

  test('six doors are open', () => {
    expect(doors.map((d) => d.name)).toEqual(['mcp stdio (embedded)', 'mcp daemon socket', 'mcp streamable http', 'http /v1', 'gortex call (daemon)', 'gortex call --embedded']);
  });

  test('a plain call', async () => {
    const answer = await sameEverywhere('search_symbols', { query: 'summarize', limit: 3 });
    expect(answer.ok).toBe(true);
    expect(JSON.parse((answer as { text: string }).text).results[0]).toMatchObject({ id: 'doorapp/src/render.ts::summarize' });
  });

  test('a budgeted call and its next page, by cursor', async () => {
    const first = await sameEverywhere('find_files', { query: '.ts', max_bytes: 400 });
    const page = JSON.parse((first as { text: string }).text)._page;
    expect(page).toMatchObject({ offset: 0 });
    expect(page.returned).toBeLessThan(page.total);
    const second = await sameEverywhere('find_files', { query: '.ts', max_bytes: 400, cursor: cursorOf(first) });
    expect(JSON.parse((second as { text: string }).text)._page.offset).toBe(page.returned);
  });

  test('scope narrowing, and an unknown scope', async () => {
    const scoped = await sameEverywhere('get_symbol', { id: 'formatLabel', repo: 'doorapp' });
    expect(JSON.parse((scoped as { text: string }).text).node).toMatchObject({ id: 'doorapp/src/format.ts::formatLabel', file_path: 'src/format.ts', repo_prefix: 'doorapp' });
    const unknown = await sameEverywhere('get_symbol', { id: 'formatLabel', repo: 'nowhere' });
    expect(unknown).toMatchObject({ ok: false, code: 'not_found', message: expect.stringContaining('repository "nowhere" is not in this workspace') });
  });

  test('a compact (facade) operation', async () => {
    const answer = await sameEverywhere('search', { operation: 'symbols', query: 'formatLabel' });
    expect(JSON.parse((answer as { text: string }).text).results[0]).toMatchObject({ name: 'formatLabel' });
  });

  test('GCX1 as an argument', async () => {
    const answer = await sameEverywhere('get_callers', { id: 'formatLabel', format: 'gcx' });
    expect((answer as { text: string }).text).toMatch(/^GCX1 tool=get_callers/);
  });

  test('refusals: bad argument, unknown tool, a compact operation given a bad argument', async () => {
    expect(await sameEverywhere('get_callers', { id: 5 })).toMatchObject({ ok: false, code: 'invalid_argument', message: expect.stringContaining('get_callers: id:') });
    expect(await sameEverywhere('get_caller', { id: 'formatLabel' })).toMatchObject({ ok: false, code: 'tool_not_found', message: expect.stringContaining('did you mean "get_callers"') });
    expect(await sameEverywhere('recall', { operation: 'notes', arguments: { limit: 0 } })).toMatchObject({ ok: false, code: 'invalid_argument', message: expect.stringContaining('limit') });
    expect(await sameEverywhere('find_files', { query: '.ts', cursor: 'garbage' })).toMatchObject({ ok: false, code: 'invalid_argument' });
  });

  test('overlays: each MCP session reads its own buffers, /v1 the session its header names, the CLI none', async () => {
    const mcpDoors = doors.slice(0, 3);
    for (const [i, door] of mcpDoors.entries()) {
      const pushed = await door.call('overlay_push', { path: 'src/overlay_only.ts', content: `export function overlayOnly${i}(): number {\n  return ${i};\n}\n` });
      expect(pushed).toMatchObject({ ok: true });
    }
    for (const [i, door] of mcpDoors.entries()) {
      for (let j = 0; j < mcpDoors.length; j++) {
        const answer = await door.call('get_symbol', { id: `src/overlay_only.ts::overlayOnly${j}` });
        expect({ door: door.name, j, ok: answer.ok }).toEqual({ door: door.name, j, ok: i === j });
      }
    }
    const v1 = async (route: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${v1Url}${route}`, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      return { status: res.status, body: await res.json() };
    };
    // The /mcp session's overlay, read over /v1 by its Mcp-Session-Id.
    const viaMcpId = await v1('/v1/tools/get_symbol', { method: 'POST', body: { id: 'src/overlay_only.ts::overlayOnly2' }, headers: { 'mcp-session-id': httpTransport.sessionId! } });
    expect(viaMcpId.status).toBe(200);
    // A session made over /v1, pushed to and read with each of the three ways of naming it.
    expect(await v1('/v1/overlay/sessions', { method: 'POST', body: { session_id: 'v1-session' } })).toMatchObject({ status: 201, body: { session_id: 'v1-session', created: true } });
    expect((await v1('/v1/overlay/sessions/v1-session/files', { method: 'PUT', body: { path: 'src/overlay_only.ts', content: 'export function fromV1() {}\n' } })).status).toBe(200);
    expect((await v1('/v1/overlay/sessions/v1-session/files')).body.files.map((f: { path: string }) => f.path)).toEqual(['src/overlay_only.ts']);
    const symbol = { method: 'POST', body: { id: 'src/overlay_only.ts::fromV1' } };
    expect((await v1('/v1/tools/get_symbol', { ...symbol, headers: { 'x-gortex-overlay-session': 'v1-session' } })).status).toBe(200);
    expect((await v1('/v1/tools/get_symbol?session_id=v1-session', symbol)).status).toBe(200);
    expect((await v1('/v1/tools/get_symbol', symbol)).status).toBe(404);
    const compared = await v1('/v1/overlay/sessions/v1-session/compare', { method: 'POST', body: { tool: 'get_dependencies', args: { id: 'src/overlay_only.ts' } } });
    expect(compared.status).toBe(200);
    expect((await v1('/v1/overlay/sessions/v1-session/branches', { method: 'POST', body: { name: 'b2' } })).status).toBe(201);
    expect((await v1('/v1/overlay/sessions/v1-session/branches')).body.branches.map((b: { name: string }) => b.name)).toEqual(['main', 'b2']);
    expect((await v1('/v1/overlay/sessions/v1-session/branches/b2', { method: 'DELETE' })).body).toMatchObject({ dropped: 'b2' });
    expect((await v1('/v1/overlay/sessions/v1-session/files?path=src/overlay_only.ts', { method: 'DELETE' })).body).toMatchObject({ removed: true });
    expect((await v1('/v1/overlay/sessions/v1-session', { method: 'DELETE' })).body).toMatchObject({ dropped: true });
    expect((await v1('/v1/overlay/sessions/v1-session/keepalive', { method: 'POST' })).status).toBe(404);
    expect((await v1('/v1/overlay/sessions/bad%20id/files')).status).toBe(400);
    // The CLI has no session to hold buffers.
    for (const cli of doors.slice(4)) {
      expect(await cli.call('overlay_push', { path: 'src/x.ts', content: 'x' })).toMatchObject({ ok: false, code: 'not_available', message: expect.stringContaining('overlays belong to a session') });
    }
    for (const door of mcpDoors) expect(await door.call('overlay_drop', {})).toMatchObject({ ok: true });
    // Ending the /mcp session (DELETE) ends its overlay with it.
    expect(await mcpDoors[2]!.call('overlay_push', { path: 'src/overlay_only.ts', content: 'export function untilDelete() {}\n' })).toMatchObject({ ok: true });
    const sessionId = httpTransport.sessionId!;
    const untilDelete = { method: 'POST', body: { id: 'src/overlay_only.ts::untilDelete' }, headers: { 'mcp-session-id': sessionId } };
    expect((await v1('/v1/tools/get_symbol', untilDelete)).status).toBe(200);
    await httpTransport.terminateSession();
    expect((await v1('/v1/tools/get_symbol', untilDelete)).status).toBe(404);
  });
});
