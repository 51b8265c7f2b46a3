/**
 * Overlay sessions through the real MCP server: unsaved buffers seen by every tool of the session
 * and by no other session, branches, compare tools, merges (to a branch and through the guarded
 * write path to disk), drift, lifecycle, and the base never changing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, serveEmbedded } from './helpers/mcp';
import { gitRepo } from './helpers/repo';
import { blobSha } from '../ts/workspace/writes';
import { OverlayStore, overlayStore, parseDuration } from '../ts/workspace/overlays';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';

const A = 'export function alpha(): number {\n  return 1;\n}\n';
const B = "import { alpha } from './a';\n\nexport function beta(): number {\n  return alpha();\n}\n";
const B_EDITED = "import { alpha } from './a';\n\nexport function gamma(): number {\n  return alpha() + 1;\n}\n\nexport const marker = 'unsaved-buffer';\n";

function callerNames(answer: { callers: { caller: { name: string } }[] }): string[] {
  return answer.callers.map((c) => c.caller.name).sort();
}

describe('overlay sessions over MCP', () => {
  let root: string;
  let repo: EmbeddedRepo;
  let one: Client;
  let two: Client;

  beforeAll(async () => {
    root = gitRepo('ov', { 'src/a.ts': A, 'src/b.ts': B, 'src/c.ts': "import { alpha } from './a';\nexport const c = alpha();\n" });
    repo = await openEmbedded(root, { watch: false });
    one = await serveEmbedded(repo);
    two = await serveEmbedded(repo);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await repo.close();
  });

  it('reads unsaved buffers in the session that pushed them, and only there', async () => {
    const reg = await okJson(one, 'overlay_register', {});
    expect(reg).toMatchObject({ active_branch: 'main', branches: ['main'], created: true, idle_ttl_seconds: 1800 });
    expect((await okJson(one, 'overlay_register', {})).created).toBe(false);

    const pushed = await okJson(one, 'overlay_push', { path: 'src/b.ts', content: B_EDITED });
    expect(pushed).toMatchObject({ path: 'src/b.ts', deleted: false, branch: 'main', files: 1, on_disk: true });

    expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['c', 'gamma']);
    expect(callerNames(await okJson(two, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['beta', 'c']);
    // Source readers see the buffer; search sees it; the other session and the disk do not.
    const source = await okJson(one, 'get_symbol_source', { id: 'src/b.ts::gamma' });
    expect(source.source).toContain('alpha() + 1');
    expect((await okJson(one, 'read_file', { path: 'src/b.ts' })).text).toBe(B_EDITED);
    expect((await okJson(two, 'read_file', { path: 'src/b.ts' })).text).toBe(B);
    expect(JSON.stringify(await okJson(one, 'search_text', { query: 'unsaved-buffer' }))).toContain('src/b.ts');
    expect(JSON.stringify(await okJson(two, 'search_text', { query: 'unsaved-buffer' }))).not.toContain('src/b.ts');
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).toBe(B);
    expect((await callJson(two, 'get_symbol', { id: 'src/b.ts::gamma' })).isError).toBe(true);

    // A new file and a deleted one.
    await okJson(one, 'overlay_push', { path: 'src/d.ts', content: "import { alpha } from './a';\nexport function delta() { return alpha(); }\n" });
    await okJson(one, 'overlay_push', { path: 'src/c.ts', deleted: true });
    expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['delta', 'gamma']);
    expect((await callJson(one, 'read_file', { path: 'src/c.ts' })).text).toMatch(/deleted in this session's overlay/);
    expect((await okJson(one, 'read_file', { path: 'src/d.ts' })).text).toContain('delta');

    const listed = await okJson(one, 'overlay_list', {});
    // The second round of pushes reached the live view in place, as an edit reaches the base.
    expect(listed.view).toMatchObject({ built: true, last: 'updated' });
    expect(listed.files.map((f: { path: string; deleted: boolean }) => [f.path, f.deleted])).toEqual([
      ['src/b.ts', false],
      ['src/c.ts', true],
      ['src/d.ts', false],
    ]);

    // compare_with_overlay: what the overlay added and removed.
    const cmp = await okJson(one, 'compare_with_overlay', { tool: 'get_callers', args: { id: 'src/a.ts::alpha' } });
    expect(cmp.added).toEqual(['ov/src/b.ts::gamma', 'ov/src/d.ts::delta']);
    expect(cmp.removed).toEqual(['ov/src/b.ts::beta', 'ov/src/c.ts::c']);
    expect(cmp.common).toEqual([]);

    // Removing buffers brings the disk back.
    await okJson(one, 'overlay_delete', { path: 'src/c.ts' });
    await okJson(one, 'overlay_delete', { path: 'src/d.ts' });
    expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['c', 'gamma']);
    expect((await callJson(one, 'overlay_delete', { path: 'src/d.ts' })).text).toMatch(/not in branch main/);
  });

  it('holds branches side by side, compares and merges them', async () => {
    const forked = await okJson(one, 'overlay_fork', { name: 'strategy-b', activate: true });
    expect(forked).toMatchObject({ branch: 'strategy-b', parent: 'main', files: 1, active_branch: 'strategy-b' });
    await okJson(one, 'overlay_push', { path: 'src/b.ts', content: B.replace('beta', 'epsilon') });
    expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['c', 'epsilon']);

    const branches = await okJson(one, 'overlay_branches', {});
    expect(branches.branches.map((b: { name: string; active: boolean; files: number }) => [b.name, b.active, b.files])).toEqual([
      ['main', false, 1],
      ['strategy-b', true, 1],
    ]);
    const both = await okJson(one, 'compare_branches', { tool: 'get_callers', args: { id: 'src/a.ts::alpha' }, b: 'strategy-b' });
    expect(both).toMatchObject({ a: 'main', b: 'strategy-b', added: ['ov/src/b.ts::epsilon'], removed: ['ov/src/b.ts::gamma'], common: ['ov/src/c.ts::c'] });

    // Divergent content is refused without force; force lets the merged branch win.
    const refused = await callJson(one, 'overlay_merge', { branch: 'strategy-b' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^conflict: .*src\/b\.ts/);
    expect(await okJson(one, 'overlay_merge', { branch: 'strategy-b', force: true })).toMatchObject({ into: 'main', overwritten: ['src/b.ts'] });

    expect((await callJson(one, 'overlay_drop_branch', { branch: 'strategy-b' })).text).toMatch(/active branch/);
    expect((await callJson(one, 'overlay_drop_branch', { branch: 'main' })).text).toMatch(/cannot be dropped/);
    expect((await callJson(one, 'overlay_switch', { branch: 'nope' })).text).toMatch(/no branch "nope"/);
    await okJson(one, 'overlay_switch', { branch: 'main' });
    expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['c', 'epsilon']);
    expect(await okJson(one, 'overlay_drop_branch', { branch: 'strategy-b' })).toMatchObject({ dropped: 'strategy-b', branches: ['main'] });
  });

  it('refuses bad input with what to fix', async () => {
    expect((await callJson(one, 'overlay_push', { path: '../outside.ts', content: 'x' })).text).toMatch(/^outside_repo: /);
    expect((await callJson(one, 'overlay_push', { path: 'src/x.ts' })).text).toMatch(/content is required/);
    expect((await callJson(one, 'overlay_push', { path: 'src/x.ts', content: 'x', deleted: true })).text).toMatch(/not both/);
    expect((await callJson(one, 'overlay_push', { path: 'src/x.ts', content: 'x', base_sha: 'abc' })).text).toMatch(/base_sha/);
    expect((await callJson(one, 'overlay_push', { path: '.git/config', content: 'x' })).text).toMatch(/\.git/);
    expect((await callJson(one, 'overlay_fork', { name: 'bad/name' })).text).toMatch(/branch name/);
    expect((await callJson(one, 'overlay_fork', { name: 'main' })).text).toMatch(/branch main exists already/);
    expect((await callJson(one, 'overlay_merge', { into: 'main', to_disk: true })).text).toMatch(/not both/);
    expect((await callJson(one, 'overlay_merge', { branch: 'main' })).text).toMatch(/cannot merge branch main into itself/);
    expect((await callJson(one, 'compare_with_overlay', { tool: 'get_callers', args: { id: 'src/a.ts::alpha', depth: 'x' } })).isError).toBe(true);
    // An overlaid file that does not parse still answers (what it declares is what the parser saw).
    await okJson(one, 'overlay_push', { path: 'src/broken.ts', content: 'export function broken( {' });
    expect((await okJson(one, 'read_file', { path: 'src/broken.ts' })).text).toContain('broken');
    await okJson(one, 'overlay_delete', { path: 'src/broken.ts' });
  });

  it('writes a branch to disk through the guarded path, refusing drift', async () => {
    const diskSha = blobSha(fs.readFileSync(path.join(root, 'src/b.ts')));
    const stale = 'f'.repeat(40);
    const drift = await okJson(one, 'overlay_push', { path: 'src/b.ts', content: B_EDITED, base_sha: stale });
    expect(drift).toMatchObject({ drift: true, disk_sha: diskSha });
    const refused = await callJson(one, 'overlay_merge', { to_disk: true });
    expect(refused.text).toMatch(/^conflict: src\/b\.ts changed since base_sha/);
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).toBe(B);

    await okJson(one, 'overlay_push', { path: 'src/b.ts', content: B_EDITED, base_sha: diskSha });
    const dry = await okJson(one, 'overlay_merge', { to_disk: true, dry_run: true });
    expect(dry.files).toEqual([expect.objectContaining({ path: 'src/b.ts', old_sha: diskSha })]);
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).toBe(B);
    const merged = await okJson(one, 'overlay_merge', { to_disk: true });
    expect(merged.files).toEqual([expect.objectContaining({ path: 'src/b.ts', new_sha: blobSha(Buffer.from(B_EDITED)) })]);
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).toBe(B_EDITED);
    // The branch is empty now and the index (every session's) follows the disk.
    expect((await okJson(one, 'overlay_list', {})).files).toEqual([]);
    expect(callerNames(await okJson(two, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['c', 'gamma']);
  });

  it('writes new files to the disk while the session holds buffers, noting their symbols', async () => {
    const other = await serveEmbedded(repo);
    try {
      await okJson(other, 'overlay_push', { path: 'src/b.ts', content: B_EDITED });
      const written = await okJson(other, 'write_file', { path: 'src/fresh.ts', content: 'export function fresh(): number {\n  return 1;\n}\n' });
      expect(written).toMatchObject({ status: 'applied', created: true });
      // A file the index leaves out (no symbols) is written too.
      expect(await okJson(other, 'write_file', { path: 'notes.txt', content: 'plain\n' })).toMatchObject({ status: 'applied', created: true });
      const history = await okJson(other, 'get_symbol_history', {});
      expect(JSON.stringify(history)).toContain('src/fresh.ts::fresh');
    } finally {
      await other.close();
      fs.rmSync(path.join(root, 'src/fresh.ts'), { force: true });
      fs.rmSync(path.join(root, 'notes.txt'), { force: true });
      await repo.reindex();
    }
  });

  it('ends with its session, and on overlay_drop', async () => {
    const store = overlayStore();
    const three = await serveEmbedded(repo);
    await okJson(three, 'overlay_push', { path: 'src/a.ts', content: 'export function alpha2() { return 2; }\n' });
    await okJson(three, 'get_symbol', { id: 'src/a.ts::alpha2' });
    const live = store.ids().length;
    await three.close();
    expect(store.ids().length).toBe(live - 1);

    expect((await okJson(one, 'overlay_keepalive', {})).session_id).toBeDefined();
    expect(await okJson(one, 'overlay_drop', {})).toMatchObject({ dropped: true });
    expect((await callJson(one, 'overlay_keepalive', {})).text).toMatch(/^not_found: no overlay session/);
    expect((await okJson(one, 'overlay_list', {})).registered).toBe(false);
  });

  it('is reached through the compact overlay and change tools', async () => {
    const compact = await serveEmbedded(repo, 'compact');
    await okJson(compact, 'overlay', { operation: 'push', arguments: { path: 'src/c.ts', content: "import { alpha } from './a';\nexport function zeta() { return alpha(); }\n" } });
    const state = await okJson(compact, 'change', { operation: 'overlay_state', arguments: {} });
    expect(state.files.map((f: { path: string }) => f.path)).toEqual(['src/c.ts']);
    const cmp = await okJson(compact, 'change', { operation: 'compare_overlay', arguments: { tool: 'get_callers', args: { id: 'src/a.ts::alpha' } } });
    expect(cmp.added).toEqual(['ov/src/c.ts::zeta']);
    await compact.close();
  });
});

describe('overlay views and the base index', () => {
  it('survive a watcher pass on an unrelated file and are rebased on a related one', async () => {
    const root = gitRepo('ov', { 'src/a.ts': A, 'src/b.ts': B, 'src/other.ts': 'export const other = 1;\n' });
    const repo = await openEmbedded(root, { watch: false });
    const client = await serveEmbedded(repo);
    try {
      await okJson(client, 'overlay_push', { path: 'src/b.ts', content: B_EDITED });
      expect(callerNames(await okJson(client, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['gamma']);
      // An unrelated file changes on disk: the base moves on, the overlay still answers.
      fs.writeFileSync(path.join(root, 'src/other.ts'), 'export const other = 2;\nexport function more() { return other; }\n');
      await repo.reindex();
      expect(callerNames(await okJson(client, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['gamma']);
      expect((await okJson(client, 'get_symbol', { id: 'src/other.ts::more' })).node.name).toBe('more');
      // A file the overlay reads changes on disk: the view is rebuilt on the new base.
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function alpha(): number {\n  return 1;\n}\nexport function extra() { return 3; }\n');
      await repo.reindex();
      expect((await okJson(client, 'get_symbol', { id: 'src/a.ts::extra' })).node.name).toBe('extra');
      expect(callerNames(await okJson(client, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['gamma']);
    } finally {
      await client.close();
      await repo.close();
    }
  });

  it('expire after the idle TTL', () => {
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('soon')).toBeUndefined();
    const store = new OverlayStore({ ttlMs: 1000 });
    try {
      store.register('s1');
      const s2 = store.register('s2').session;
      s2.last_used = Date.now() + 5000;
      expect(store.sweep(Date.now() + 2000)).toEqual(['s1']);
      expect(store.ids()).toEqual(['s2']);
    } finally {
      store.close();
    }
  });
});

describe('speculative execution: preview_edit and simulate_chain', () => {
  let root: string;
  let repo: EmbeddedRepo;
  let client: Client;
  const uri = (rel: string): string => `file://${path.join(root, rel)}`;
  const at = (line: number, from: number, to: number, newText: string) => ({ range: { start: { line, character: from }, end: { line, character: to } }, newText });
  // `alpha` is at line 0, characters 16..21 of a.ts; b.ts calls it at line 3 (characters 9..14); c.ts at line 1 (17..22).
  const renameDefinition = { changes: { [`src/a.ts`]: [at(0, 16, 21, 'alpha2')] } };

  beforeAll(async () => {
    root = gitRepo('spec', {
      'src/a.ts': A,
      'src/b.ts': B,
      'src/c.ts': "import { alpha } from './a';\nexport const c = alpha();\n",
      'src/shape.ts': 'export interface Shape {\n  area(): number;\n}\n',
      'src/square.ts': "import { Shape } from './shape';\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n",
    });
    repo = await openEmbedded(root, { watch: false });
    client = await serveEmbedded(repo);
  });
  afterAll(async () => {
    await client.close();
    await repo.close();
  });

  it('previews a rename that leaves callers behind, and one that takes them along', async () => {
    const half = await okJson(client, 'preview_edit', { workspace_edit: renameDefinition });
    expect(half.touched_files).toEqual([{ path: 'src/a.ts', status: 'modified' }]);
    expect(half.removed_symbols.map((s: { id: string }) => s.id)).toEqual(['spec/src/a.ts::alpha']);
    expect(half.added_symbols.map((s: { id: string }) => s.id)).toEqual(['spec/src/a.ts::alpha2']);
    expect(half.broken_callers.map((c: { caller: string; now: string }) => [c.caller, c.now])).toEqual([
      ['spec/src/b.ts::beta', 'unbound'],
      ['spec/src/c.ts::c', 'unbound'],
    ]);
    expect(half.blast_radius.files).toEqual(expect.arrayContaining(['src/b.ts', 'src/c.ts']));
    // The language server sees the edit too: both importers of alpha break, and nothing else.
    expect(half.diagnostics).toMatchObject({ new_syntax_errors: 0, lsp: { ran: true, new_errors: 2 } });
    const broken = half.diagnostics.lsp.files.filter((f: { new: unknown[] }) => f.new.length > 0);
    expect(broken.map((f: { path: string; new: { code: number; severity: string }[] }) => [f.path, f.new.map((d) => [d.code, d.severity])])).toEqual([
      ['src/b.ts', [[2724, 'error']]],
      ['src/c.ts', [[2724, 'error']]],
    ]);
    expect(half.diagnostics.lsp.files.find((f: { path: string }) => f.path === 'src/b.ts')).toMatchObject({ before: { error: 0 }, after: { error: 1 }, cleared: 0 });
    // ... and is put back to the disk's text afterwards.
    expect((await okJson(client, 'get_diagnostics', { path: 'src/b.ts' })).counts.error).toBe(0);
    // Nothing was written and no session overlay was left behind.
    expect(fs.readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe(A);
    expect((await okJson(client, 'overlay_list', {})).registered).toBe(false);

    const whole = await okJson(client, 'preview_edit', {
      workspace_edit: {
        documentChanges: [
          { textDocument: { uri: uri('src/a.ts'), version: 1 }, edits: [at(0, 16, 21, 'alpha2')] },
          { textDocument: { uri: uri('src/b.ts'), version: 1 }, edits: [at(0, 9, 14, 'alpha2'), at(3, 9, 14, 'alpha2')] },
          { textDocument: { uri: uri('src/c.ts'), version: 1 }, edits: [at(0, 9, 14, 'alpha2'), at(1, 17, 22, 'alpha2')] },
        ],
      },
    });
    expect(whole.touched_files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(whole.broken_callers).toEqual([]);
    expect(whole.diagnostics.lsp).toMatchObject({ ran: true, new_errors: 0 });
    expect(whole.modified_symbols).toEqual(expect.arrayContaining(['spec/src/b.ts::beta']));
  });

  it('previews file operations and interface changes', async () => {
    const ops = await okJson(client, 'preview_edit', {
      workspace_edit: {
        documentChanges: [
          { kind: 'create', uri: 'src/e.ts' },
          { textDocument: { uri: 'src/e.ts', version: null }, edits: [at(0, 0, 0, "import { alpha } from './a';\nexport function eps() { return alpha(); }\n")] },
          { kind: 'rename', oldUri: 'src/b.ts', newUri: 'src/b2.ts' },
          { kind: 'delete', uri: 'src/c.ts' },
        ],
      },
    });
    expect(ops.touched_files).toEqual([
      { path: 'src/b.ts', status: 'deleted' },
      { path: 'src/b2.ts', status: 'created' },
      { path: 'src/c.ts', status: 'deleted' },
      { path: 'src/e.ts', status: 'created' },
    ]);
    expect(ops.added_symbols.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['spec/src/e.ts::eps', 'spec/src/b2.ts::beta']));
    expect(ops.removed_symbols.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['spec/src/c.ts::c', 'spec/src/b.ts::beta']));
    expect(fs.existsSync(path.join(root, 'src/e.ts'))).toBe(false);

    const iface = await okJson(client, 'preview_edit', { workspace_edit: { changes: { 'src/shape.ts': [at(1, 17, 17, '\n  perimeter(): number;')] } } });
    expect(iface.added_symbols.map((s: { id: string }) => s.id)).toEqual(['spec/src/shape.ts::Shape.perimeter']);
    expect(iface.broken_implementors).toEqual([{ interface: 'spec/src/shape.ts::Shape', implementor: 'spec/src/square.ts::Square', path: 'src/square.ts', changed: ['perimeter'] }]);
  });

  it('refuses edits it cannot apply, saying why', async () => {
    const bad = async (workspace_edit: unknown): Promise<string> => (await callJson(client, 'preview_edit', { workspace_edit })).text;
    expect(await bad({})).toMatch(/neither changes nor documentChanges/);
    expect(await bad({ changes: { 'src/a.ts': [at(0, 0, 5, 'x'), at(0, 3, 8, 'y')] } })).toMatch(/two edits overlap/);
    expect(await bad({ changes: { 'src/nope.ts': [at(0, 0, 0, 'x')] } })).toMatch(/^not_found: src\/nope\.ts does not exist/);
    expect(await bad({ changes: { 'https://example.com/a.ts': [at(0, 0, 0, 'x')] } })).toMatch(/only file:\/\/ URIs/);
    expect(await bad({ changes: { '../../etc/passwd': [at(0, 0, 0, 'x')] } })).toMatch(/^outside_repo: /);
    expect(await bad({ documentChanges: [{ kind: 'create', uri: 'src/a.ts' }] })).toMatch(/^conflict: CreateFile src\/a\.ts: the file exists/);
    expect(await bad({ changes: { 'src/a.ts': [{ range: { start: { line: -1, character: 0 } } }] } })).toMatch(/^invalid_argument: /);
  });

  it('simulates a chain step by step, stops at a step that breaks the syntax, and keeps the result on request', async () => {
    const fixCallers = {
      changes: { 'src/b.ts': [at(0, 9, 14, 'alpha2'), at(3, 9, 14, 'alpha2')], 'src/c.ts': [at(0, 9, 14, 'alpha2'), at(1, 17, 22, 'alpha2')] },
    };
    // By default the chain stops at the step whose language-server diagnostics gain an error.
    const strict = await okJson(client, 'simulate_chain', { steps: [{ workspace_edit: renameDefinition, label: 'rename' }, { workspace_edit: fixCallers, label: 'callers' }] });
    expect(strict).toMatchObject({ stopped_at: 1, completed: 0, steps: [{ label: 'rename', diagnostics: { new_syntax_errors: 0, lsp: { new_errors: 2 } } }] });
    const chain = await okJson(client, 'simulate_chain', { steps: [{ workspace_edit: renameDefinition, label: 'rename' }, { workspace_edit: fixCallers, label: 'callers' }], stop_on_error: false });
    expect(chain.completed).toBe(2);
    // The second step clears what the first broke; from start to end nothing is broken.
    expect(chain.steps[1].diagnostics.lsp.new_errors).toBe(0);
    expect(chain.steps[1].diagnostics.lsp.files.filter((f: { cleared: number }) => f.cleared > 0).map((f: { path: string }) => f.path)).toEqual(['src/b.ts', 'src/c.ts']);
    expect(chain.cumulative.diagnostics.lsp).toMatchObject({ ran: true, new_errors: 0 });
    expect(chain.steps[0].broken_callers.length).toBe(2);
    expect(chain.steps[1].broken_callers).toEqual([]);
    expect(chain.cumulative.broken_callers).toEqual([]);
    expect(chain.cumulative.touched_files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);

    const stopped = await okJson(client, 'simulate_chain', {
      steps: [{ workspace_edit: { changes: { 'src/a.ts': [at(0, 30, 30, '{{{')] } } }, { workspace_edit: renameDefinition }],
    });
    expect(stopped).toMatchObject({ stopped_at: 1, completed: 0 });
    expect(stopped.steps).toHaveLength(1);
    expect(stopped.steps[0].diagnostics.new_syntax_errors).toBeGreaterThan(0);
    const failing = await okJson(client, 'simulate_chain', { steps: [{ workspace_edit: { changes: { 'src/missing.ts': [at(0, 0, 0, 'x')] } } }, { workspace_edit: renameDefinition }], stop_on_error: false });
    expect(failing.steps.map((s: { applied: boolean }) => s.applied)).toEqual([false, true]);

    const kept = await okJson(client, 'simulate_chain', { steps: [{ workspace_edit: renameDefinition }, { workspace_edit: fixCallers }], keep: true, stop_on_error: false, diagnostics: false });
    expect(kept.steps[0].diagnostics.lsp).toBeUndefined();
    expect(kept.kept).toMatchObject({ branch: 'main', files: 3 });
    expect((await okJson(client, 'get_callers', { id: 'src/a.ts::alpha2' })).callers.map((c: { caller: { name: string } }) => c.caller.name).sort()).toEqual(['beta', 'c']);
    expect(fs.readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe(A);

    // inherit_overlay layers a preview over the kept overlay: alpha2 → alpha3 breaks the overlay's callers.
    const layered = await okJson(client, 'preview_edit', { workspace_edit: { changes: { 'src/a.ts': [at(0, 16, 22, 'alpha3')] } }, inherit_overlay: true });
    expect(layered.inherited_overlay).toBe(true);
    expect(layered.removed_symbols.map((s: { id: string }) => s.id)).toEqual(['spec/src/a.ts::alpha2']);
    expect(layered.broken_callers.map((c: { caller: string }) => c.caller)).toEqual(['spec/src/b.ts::beta', 'spec/src/c.ts::c']);
    await okJson(client, 'overlay_drop', {});
  });
});

describe('overlays under concurrency', () => {
  it('keeps many sessions apart while they push and query at once and the base is re-indexed', async () => {
    const root = gitRepo('busy', { 'src/a.ts': A, 'src/b.ts': B, 'src/other.ts': 'export const other = 1;\n' });
    const repo = await openEmbedded(root, { watch: false });
    const clients = await Promise.all(Array.from({ length: 6 }, () => serveEmbedded(repo)));
    try {
      const round = async (client: Client, i: number, step: number): Promise<void> => {
        await okJson(client, 'overlay_push', { path: 'src/b.ts', content: `import { alpha } from './a';\nexport function caller${i}_${step}(): number {\n  return alpha();\n}\n` });
        const names = callerNames(await okJson(client, 'get_callers', { id: 'src/a.ts::alpha' }));
        expect(names).toEqual([`caller${i}_${step}`]);
        const text = await okJson(client, 'read_file', { path: 'src/b.ts' });
        expect(text.text).toContain(`caller${i}_${step}`);
      };
      for (let step = 0; step < 3; step++) {
        // Every session pushes and reads at once; the base moves under them halfway.
        const work = clients.map((c, i) => round(c, i, step));
        if (step === 1) {
          fs.writeFileSync(path.join(root, 'src/other.ts'), `export const other = ${step};\nexport function moved${step}() { return other; }\n`);
          work.push(repo.reindex().then(() => undefined));
        }
        await Promise.all(work);
      }
      // A push that lands while the view of the previous one is being built is not answered from it.
      const [c] = clients;
      const version = (name: string): string => `import { alpha } from './a';\nexport function ${name}(): number {\n  return alpha();\n}\n`;
      await okJson(c!, 'overlay_push', { path: 'src/b.ts', content: version('first') });
      const early = okJson(c!, 'get_callers', { id: 'src/a.ts::alpha' });
      await okJson(c!, 'overlay_push', { path: 'src/b.ts', content: version('second') });
      const late = await okJson(c!, 'get_callers', { id: 'src/a.ts::alpha' });
      expect(callerNames(late)).toEqual(['second']);
      expect(['first', 'second']).toContain(callerNames(await early)[0]);
      // The base saw none of it.
      const plain = await serveEmbedded(repo);
      expect(callerNames(await okJson(plain, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['beta']);
      await plain.close();
    } finally {
      for (const c of clients) await c.close();
      repo.close();
    }
  });
});

describe('overlay views kept within their budget', () => {
  it('drops the least recently read view of another session past the node budget, and rebuilds it on use', async () => {
    const root = gitRepo('budget', { 'src/a.ts': A, 'src/b.ts': B });
    const repo = await openEmbedded(root, { watch: false });
    const [one, two] = [await serveEmbedded(repo), await serveEmbedded(repo)];
    const store = overlayStore();
    const saved = process.env.GORTEX_OVERLAY_MAX_VIEW_NODES;
    process.env.GORTEX_OVERLAY_MAX_VIEW_NODES = '1';
    try {
      await okJson(one, 'overlay_push', { path: 'src/b.ts', content: B.replace('beta', 'fromOne') });
      expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['fromOne']);
      await okJson(two, 'overlay_push', { path: 'src/b.ts', content: B.replace('beta', 'fromTwo') });
      expect(callerNames(await okJson(two, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['fromTwo']);
      // Only the view just built is left: every other session's is past the budget.
      expect(store.builtViews()).toBe(1);
      expect((await okJson(one, 'overlay_list', {})).view).toEqual({ built: false });
      expect(callerNames(await okJson(one, 'get_callers', { id: 'src/a.ts::alpha' }))).toEqual(['fromOne']);
    } finally {
      if (saved === undefined) delete process.env.GORTEX_OVERLAY_MAX_VIEW_NODES;
      else process.env.GORTEX_OVERLAY_MAX_VIEW_NODES = saved;
      await one.close();
      await two.close();
      repo.close();
    }
  });
});
