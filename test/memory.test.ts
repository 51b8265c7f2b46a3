/**
 * Memory, feedback and the savings ledger through the real doors: an MCP client over an embedded
 * repository (full and compact surfaces), the CLI as a child process, the sidecar on disk.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { sidecarAt } from '../ts/engine/sidecar';
import { callJson, okJson, serveEmbedded } from './helpers/mcp';
import { gitRepo, useTempHome } from './helpers/repo';
import { runCli, unwrapCliError } from './helpers/cli';

const AUTH = `import { audit } from './audit';

export function login(user: string, password: string): boolean {
  audit(user);
  const ok = check(user, password);
  return ok && user.length > 0;
}

function check(u: string, p: string): boolean {
  return u !== p && p.length >= 12;
}

export function logout(user: string): void {
  audit(user);
  console.log('bye', user);
}

export function unrelated(): number {
  return 42;
}
`;
const AUDIT = `export function audit(who: string): void {
  console.log('audit', who);
}
`;

function repoWith(name: string): string {
  return gitRepo(name, { 'src/auth.ts': AUTH, 'src/audit.ts': AUDIT, 'package.json': '{"name":"memapp"}\n' });
}

describe('memories over MCP', () => {
  useTempHome();
  const root = repoWith('memapp');
  let repo: EmbeddedRepo;
  let client: Client;
  let compact: Client;
  beforeAll(async () => {
    repo = await openEmbedded(root, { watch: false });
    client = await serveEmbedded(repo);
    compact = await serveEmbedded(repo, 'compact');
  });
  afterAll(async () => {
    await client.close();
    await compact.close();
    await repo.close();
  });

  test('store, recall by words and by what the session is looking at', async () => {
    const inv = await okJson(client, 'store_memory', {
      content: 'login must rate-limit by user before checking passwords',
      kind: 'invariant',
      symbols: ['login'],
      files: ['src/auth.ts'],
      tags: ['Security'],
    });
    expect(inv.stored).toMatchObject({
      kind: 'invariant',
      tags: ['security'],
      anchors: [
        { kind: 'symbol', id: 'memapp/src/auth.ts::login', status: 'ok' },
        { kind: 'file', id: 'memapp/src/auth.ts', status: 'ok' },
      ],
    });
    await okJson(client, 'store_memory', { content: 'audit lines are shipped to the SIEM nightly', kind: 'decision', symbols: ['audit'] });
    await okJson(client, 'store_memory', { content: 'the answer constant is load-bearing', symbols: ['unrelated'] });
    const note = await okJson(client, 'save_note', { content: 'stopped while reading logout', symbols: ['logout'] });
    expect(note.saved.kind).toBe('note');

    const byWords = await okJson(client, 'surface_memories', { query: 'rate limiting passwords' });
    expect(byWords.memories[0]).toMatchObject({ id: inv.stored.id, why: ['matches the query'] });
    expect(byWords.total).toBe(1);

    // Focus from the arguments: the anchored symbol first, a callee one call away next, then the same file (newest first).
    const near = await okJson(client, 'surface_memories', { symbols: ['login'], limit: 5 });
    expect(near.memories.map((m: any) => m.text.slice(0, 12))).toEqual(['login must r', 'audit lines ', 'stopped whil', 'the answer c']);
    expect(near.memories[0].why).toEqual(['anchored to what you are looking at (arguments)']);
    expect(near.memories[1].why).toEqual(['anchored one call away from what you are looking at']);
    expect(near.memories[2].why).toEqual(['anchored in a file you are looking at']);

    // Focus from the session's working set: what it just read.
    await okJson(client, 'get_symbol_source', { id: 'unrelated' });
    const fromSession = await okJson(client, 'surface_memories', {});
    expect(fromSession.focus.from).toBe('session working set');
    expect(fromSession.memories[0].text).toBe('the answer constant is load-bearing');

    const notes = await okJson(client, 'list_notes', { session_only: true });
    expect(notes.notes.map((n: any) => [n.text, n.this_session])).toEqual([['stopped while reading logout', true]]);
  });

  test('anchors follow a gortex rename, an outside rename and a move; a deleted symbol is flagged, not dropped', async () => {
    const { stored } = await okJson(client, 'store_memory', { content: 'check enforces the 12-character minimum', symbols: ['check', 'logout'] });
    const renamed = await okJson(client, 'rename_symbol', { id: 'login', new_name: 'signIn' });
    expect(renamed.memory_anchors_moved).toBe(1);

    // An edit outside the refactoring tools: only the name changes (followed by the name-free fingerprint).
    await okJson(client, 'edit_file', { path: 'src/auth.ts', old_string: 'function check(', new_string: 'function checkPassword(' });
    await okJson(client, 'edit_file', { path: 'src/auth.ts', old_string: 'const ok = check(', new_string: 'const ok = checkPassword(' });
    // logout moves to its own file, unchanged.
    const auth = fs.readFileSync(path.join(root, 'src/auth.ts'), 'utf8');
    const logout = auth.slice(auth.indexOf('export function logout'), auth.indexOf('export function unrelated'));
    await okJson(client, 'write_file', { path: 'src/session.ts', content: `import { audit } from './audit';\n\n${logout}` });
    await okJson(client, 'edit_file', { path: 'src/auth.ts', old_string: logout, new_string: '' });
    // unrelated is deleted outright.
    await okJson(client, 'edit_file', { path: 'src/auth.ts', old_string: 'export function unrelated(): number {\n  return 42;\n}\n', new_string: '' });

    const all = await okJson(client, 'surface_memories', { order: 'recent', limit: 20, mark_accessed: false });
    const anchorsOf = (text: string) => all.memories.find((m: any) => m.text.startsWith(text)).anchors.map((a: any) => [a.id, a.status, a.was ?? null]);
    expect(anchorsOf('check enforces')).toEqual([
      ['memapp/src/auth.ts::checkPassword', 'moved', 'memapp/src/auth.ts::check'],
      ['memapp/src/session.ts::logout', 'moved', 'memapp/src/auth.ts::logout'],
    ]);
    expect(anchorsOf('login must')).toEqual([
      ['memapp/src/auth.ts::signIn', 'moved', 'memapp/src/auth.ts::login'],
      ['memapp/src/auth.ts', 'ok', null],
    ]);
    const lost = all.memories.find((m: any) => m.text.startsWith('the answer constant'));
    expect(lost.anchors).toEqual([{ kind: 'symbol', id: 'memapp/src/auth.ts::unrelated', status: 'missing' }]);
    expect(lost.flagged).toMatch(/no longer in the code/);
    expect(all.flagged).toBeGreaterThanOrEqual(1);
    // The moves are stored: the sidecar itself now points at the new ids.
    const row = sidecarAt().memoryGet([stored.id])[0]!;
    expect(row.anchors.map((a) => a.target)).toEqual(['memapp/src/auth.ts::checkPassword', 'memapp/src/session.ts::logout']);
    // The function comes back: the flag clears.
    await okJson(client, 'edit_file', { path: 'src/auth.ts', old_string: 'function checkPassword', new_string: 'export function unrelated(): number {\n  return 42;\n}\n\nfunction checkPassword' });
    const again = await okJson(client, 'surface_memories', { query: 'answer constant' });
    expect(again.memories[0].anchors[0].status).toBe('ok');
    expect(again.memories[0].flagged).toBeUndefined();
  });

  test('edit and forget; bad input names what is wrong and stores nothing', async () => {
    const { stored } = await okJson(client, 'store_memory', { content: 'first draft' });
    const edited = await okJson(client, 'edit_memory', { id: stored.id, content: 'second draft', kind: 'decision', title: 'Drafts', files: ['src/audit.ts'] });
    expect(edited.edited).toMatchObject({ kind: 'decision', title: 'Drafts', text: 'second draft', anchors: [{ kind: 'file', id: 'memapp/src/audit.ts' }] });
    expect((await okJson(client, 'forget_memory', { ids: [stored.id, 99999] })).forgotten).toEqual([stored.id]);
    const count = sidecarAt().memoryList({ limit: 1000 }).total;
    const bad: [string, Record<string, unknown>, string, RegExp][] = [
      ['store_memory', { content: 'x', symbols: ['noSuchSymbolAnywhere'] }, 'not_found', /noSuchSymbolAnywhere/],
      ['store_memory', { content: 'x', files: ['../outside.ts'] }, 'not_found', /not an indexed file/],
      ['store_memory', { content: 'x', kind: 'risk_ack' }, 'invalid_argument', /names the symbols or files/],
      ['store_memory', { content: 'x', kind: 'gossip' }, 'invalid_argument', /kind/],
      ['edit_memory', { id: 99999, content: 'y' }, 'not_found', /no memory with id 99999/],
      ['surface_memories', { kinds: ['nope'] }, 'invalid_argument', /kinds/],
    ];
    for (const [tool, args, code, message] of bad) {
      const r = await callJson(client, tool, args);
      expect({ tool, isError: r.isError, code: r.text.split(':')[0] }).toEqual({ tool, isError: true, code });
      expect(r.text).toMatch(message);
    }
    expect(sidecarAt().memoryList({ limit: 1000 }).total).toBe(count);
  });

  test('the compact remember/recall operations route to the memory tools', async () => {
    const stored = await okJson(compact, 'remember', { operation: 'risk_ack', arguments: { content: 'unbounded retry accepted until v2', symbols: ['audit'] } });
    expect(stored.stored).toMatchObject({ kind: 'risk_ack', anchors: [{ id: 'memapp/src/audit.ts::audit' }] });
    await okJson(compact, 'remember', { operation: 'note', arguments: { content: 'compact note' } });
    const recalled = await okJson(compact, 'recall', { operation: 'memories', arguments: { query: 'retry' } });
    expect(recalled.memories[0]).toMatchObject({ id: stored.stored.id, kind: 'risk_ack' });
    const before = sidecarAt().memoryGet([stored.stored.id])[0]!.access_count;
    await okJson(compact, 'recall', { operation: 'surface', arguments: { query: 'retry' } });
    expect(sidecarAt().memoryGet([stored.stored.id])[0]!.access_count).toBe(before);
    expect((await okJson(compact, 'recall', { operation: 'notes', arguments: {} })).notes[0].text).toBe('compact note');
    expect((await okJson(compact, 'remember', { operation: 'forget', arguments: { ids: [stored.stored.id] } })).forgotten).toEqual([stored.stored.id]);
  });

  test('feedback query: most useful, most missed, precision and recall per tool', async () => {
    const id = (name: string) => `memapp/src/audit.ts::${name}`;
    await okJson(client, 'feedback', { tool: 'search_symbols', rating: 'useful', ids: [id('audit')] });
    await okJson(client, 'feedback', { tool: 'search_symbols', rating: 'useful', ids: [id('audit')] });
    await okJson(client, 'feedback', { tool: 'search_symbols', rating: 'missing', ids: ['memapp/src/auth.ts::signIn'] });
    await okJson(client, 'feedback', { tool: 'explore', rating: 'wrong', ids: ['memapp/src/auth.ts::signIn'] });
    const q = await okJson(client, 'feedback', { action: 'query' });
    expect(q).toMatchObject({
      scope: 'memapp',
      ratings: 4,
      most_useful: [{ id: id('audit'), count: 2, in_graph: true }],
      most_missed: [{ id: 'memapp/src/auth.ts::signIn', count: 1 }],
      precision: 0.667,
      recall: 0.667,
    });
    expect(q.by_tool).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'search_symbols', useful: 2, missing: 1, precision: 1, recall: 0.667 }),
        expect.objectContaining({ tool: 'explore', wrong: 1, precision: 0 }),
      ]),
    );
    // Useful ratings still rank search results.
    const found = await okJson(client, 'search_symbols', { query: 'audit' });
    expect(found.results[0]).toMatchObject({ id: id('audit'), feedback: { useful: 2 } });
    const bad = await callJson(client, 'feedback', { action: 'query', since: 'last tuesday' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/since: "last tuesday" is not a duration/);
    const incomplete = await callJson(client, 'feedback', { rating: 'useful' });
    expect(incomplete.text).toMatch(/action record needs tool/);
  });

  test('every answer books its tokens; graph_stats and gortex://session report the session and lifetime', async () => {
    const fresh = await serveEmbedded(repo);
    try {
      const src = await okJson(fresh, 'get_symbol_source', { id: 'audit' });
      expect(src.source).toContain('console.log');
      const stats = await okJson(fresh, 'graph_stats', {});
      const session = stats.token_savings.session;
      const fileTokens = Math.ceil(fs.statSync(path.join(root, 'src/audit.ts')).size / 4);
      expect(session.by_tool).toEqual([expect.objectContaining({ tool: 'get_symbol_source', calls: 1, baseline_tokens: Math.max(fileTokens, session.by_tool[0].returned_tokens) })]);
      expect(stats.token_savings.lifetime.calls).toBeGreaterThan(session.calls);
      const { contents } = await fresh.readResource({ uri: 'gortex://session' });
      const body = JSON.parse((contents[0] as { text: string }).text);
      // graph_stats itself has been booked by now.
      expect(body.token_savings.session.calls).toBe(2);
      expect(body.token_savings.lifetime.calls).toBeGreaterThanOrEqual(stats.token_savings.lifetime.calls + 1);
    } finally {
      await fresh.close();
    }
  });
});

describe('gortex memory, feedback and savings verbs', () => {
  const home = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'gortex-home-'));
  const root = repoWith('cliapp');
  const cli = (...args: string[]) => runCli(args, { cwd: root, env: { GORTEX_HOME: home } });

  test('add, list, search, forget', () => {
    const added = cli('memory', 'add', 'Tokens are refreshed by the gateway only', '--kind', 'decision', '--symbol', 'login', '--tag', 'auth', '--embedded');
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^Stored memory #1\.\n#1 decision {2}\[auth\]/);
    expect(added.stdout).toContain('↳ symbol cliapp/src/auth.ts::login');
    expect(cli('memory', 'add', 'remember the audit trail', '--kind', 'note', '--file', 'src/audit.ts', '--embedded').status).toBe(0);
    const listed = cli('memory', 'list', '--embedded');
    expect(listed.stdout.match(/^#\d+ \w+/gm)).toEqual(['#2 note', '#1 decision']);
    const json = JSON.parse(cli('memory', 'list', '--kind', 'decision', '--json', '--embedded').stdout);
    expect(json.memories.map((m: any) => m.id)).toEqual([1]);
    const found = cli('memory', 'search', 'gateway', '--embedded');
    expect(found.stdout).toContain('why: matches the query');
    expect(cli('memory', 'forget', '#1', '--embedded').stdout).toBe('Forgot #1.\n');
    expect(JSON.parse(cli('memory', 'list', '--json', '--embedded').stdout).total).toBe(1);
    const bad = cli('memory', 'forget', 'one', '--embedded');
    expect(bad.status).toBe(2);
    expect(unwrapCliError(bad.stderr)).toMatch(/memory ids are positive whole numbers/);
    const unknown = cli('memory', 'add', 'x', '--symbol', 'nope_nothing', '--embedded');
    expect(unknown.status).toBe(2);
    expect(unwrapCliError(unknown.stderr)).toMatch(/nope_nothing/);
    expect(cli('memory', 'search', '--embedded').status).toBe(2);
  });

  test('feedback query and savings read the same sidecar', () => {
    const q = cli('feedback', 'query', '--embedded');
    expect(q.status).toBe(0);
    expect(q.stdout).toMatch(/No feedback recorded for cliapp/);
    const savings = JSON.parse(cli('savings', '--json').stdout);
    expect(savings.ledger).toBe(path.join(home, 'sidecar.sqlite'));
    expect(savings.by_tool.map((r: any) => r.key)).toEqual(expect.arrayContaining(['store_memory', 'surface_memories', 'forget_memory', 'feedback']));
    expect(savings.total.calls).toBeGreaterThanOrEqual(8);
    const text = cli('savings', '--since', '7d', '--usd-per-mtok', '3', '--verbose').stdout;
    expect(text).toMatch(/^Token savings since \d{4}-\d\d-\d\d: /);
    expect(text).toContain('By day:');
    expect(cli('savings', '--since', 'forever').status).toBe(2);
    expect(cli('savings', '--reset').stdout).toMatch(/Savings ledger emptied/);
    expect(JSON.parse(cli('savings', '--json').stdout).total.calls).toBe(0);
  });
});
