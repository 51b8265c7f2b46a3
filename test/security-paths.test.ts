/**
 * Paths that lead out of the repository: a directory symlink to a folder outside a watched
 * repository (the OS watcher must not report changes under it, the watcher pass must not read
 * them, and no search tool may serve them), and the agent-config audit (`gortex://audit`) with
 * instruction files linked to outside the root and one far too large to read whole. A real
 * embedded repository with its native watcher, and the real MCP server over it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { watchRepo, type WatchBatch } from '../ts/engine/engine';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { serveEmbedded as serve } from './helpers/mcp';
import { fixtureCopy, useTempHome } from './helpers/repo';

/** A folder outside every repository, holding one source file with a marker only it contains. */
function outsideFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-outside-'));
  fs.writeFileSync(path.join(dir, 'leak.ts'), "export function outsideLeakFn(): string {\n  return 'OUTSIDE_LEAK_MARKER';\n}\n");
  return dir;
}


/** A tool's JSON answer (a failure fails the test). */
async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

/** The JSON of one resource. */
async function resource(client: Client, uri: string): Promise<any> {
  const { contents } = await client.readResource({ uri });
  return JSON.parse((contents[0] as { text: string }).text);
}

describe('paths leading out of the repository', () => {
  useTempHome();

  test('the native watcher reports nothing under a directory symlink', async () => {
    const outside = outsideFolder();
    const root = fixtureCopy('query/app-ts', 'watchlink');
    fs.symlinkSync(outside, path.join(root, 'linked'), 'dir');
    const seen: string[] = [];
    let sentinelSeen: () => void = () => undefined;
    const sentinel = new Promise<void>((resolve) => (sentinelSeen = resolve));
    const watcher = watchRepo(root, [], 20, (batch: WatchBatch) => {
      seen.push(...batch.paths);
      if (batch.paths.includes('src/sentinel.ts')) sentinelSeen();
    });
    try {
      // The outside change happens first: had it been reported, it would be in this batch or an earlier one.
      fs.appendFileSync(path.join(outside, 'leak.ts'), 'export function outsideLeakLater(): number {\n  return 2;\n}\n');
      fs.writeFileSync(path.join(outside, 'fresh.ts'), 'export const fresh = 1;\n');
      fs.writeFileSync(path.join(root, 'src', 'sentinel.ts'), 'export function sentinelAfterLeak(): number {\n  return 3;\n}\n');
      await sentinel;
      expect(seen.filter((p) => p.startsWith('linked'))).toEqual([]);
    } finally {
      watcher.close();
    }
  });

  test('a change under a directory symlink is never indexed nor served by search_text, search_symbols or find_files', async () => {
    const outside = outsideFolder();
    const root = fixtureCopy('query/app-ts', 'seclink');
    fs.symlinkSync(outside, path.join(root, 'linked'), 'dir');
    const repo = await openEmbedded(root, { watch: true });
    const client = await serve(repo);
    try {
      // The opening walk does not follow the link, and says so.
      const health = await tool(client, 'index_health', {});
      expect(health.skipped.by_reason).toMatchObject({ symlink: 1 });
      expect(health.skipped.files).toContainEqual(expect.objectContaining({ path: 'linked', reason: 'symlink' }));
      expect(health.skipped.symlinks).toMatch(/1 symbolic link skipped.*never followed/);

      fs.appendFileSync(path.join(outside, 'leak.ts'), 'export function outsideLeakLater(): number {\n  return 2;\n}\n');
      fs.writeFileSync(path.join(outside, 'fresh.ts'), "export function outsideFreshFn(): string {\n  return 'OUTSIDE_LEAK_MARKER';\n}\n");
      fs.writeFileSync(path.join(root, 'src', 'sentinel.ts'), "export function sentinelAfterLeak(): string {\n  return 'INSIDE_MARKER';\n}\n");
      // Wait for the watcher pass that carries the sentinel (the outside changes came before it).
      for (;;) {
        const next = new Promise<void>((resolve) => {
          const off = repo.onReindexed(() => {
            off();
            resolve();
          });
        });
        const found = await tool(client, 'search_symbols', { query: 'sentinelAfterLeak' });
        if (found.results.some((r: { path: string }) => r.path === 'src/sentinel.ts')) break;
        await next;
      }

      const text = await tool(client, 'search_text', { query: 'OUTSIDE_LEAK_MARKER' });
      expect(text.hits).toEqual([]);
      // The same searches do find what changed inside the repository in that pass.
      expect((await tool(client, 'search_text', { query: 'INSIDE_MARKER' })).hits).toEqual([expect.objectContaining({ path: 'src/sentinel.ts' })]);
      expect((await tool(client, 'find_files', { query: 'sentinel.ts' })).results).toEqual([expect.objectContaining({ path: 'src/sentinel.ts' })]);
      for (const query of ['outsideLeakFn', 'outsideLeakLater', 'outsideFreshFn']) {
        const symbols = await tool(client, 'search_symbols', { query });
        expect(symbols.results.filter((r: { path: string }) => r.path.startsWith('linked'))).toEqual([]);
      }
      for (const query of ['leak.ts', 'fresh.ts', 'linked']) {
        const files = await tool(client, 'find_files', { query });
        expect(files.results.filter((r: { path: string }) => r.path.startsWith('linked'))).toEqual([]);
      }
    } finally {
      await client.close();
      repo.close();
    }
  });

  test('audit: instruction files linked outside the root are refused and reported; a huge one is read only up to the cap', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-outside-'));
    fs.writeFileSync(path.join(outside, 'CLAUDE.md'), 'Secret instructions: `outsideOnlySymbol` in `secret/path.ts`.\n');
    fs.mkdirSync(path.join(outside, 'rules'));
    fs.writeFileSync(path.join(outside, 'rules', 'style.md'), 'Use `outsideRuleSymbol`.\n');
    fs.writeFileSync(path.join(outside, 'single.mdc'), 'Use `outsideSingleRule`.\n');
    const root = fixtureCopy('query/app-ts', 'secaudit');
    fs.symlinkSync(path.join(outside, 'CLAUDE.md'), path.join(root, 'CLAUDE.md'));
    fs.mkdirSync(path.join(root, '.cursor'));
    fs.symlinkSync(path.join(outside, 'rules'), path.join(root, '.cursor', 'rules'), 'dir');
    fs.mkdirSync(path.join(root, '.windsurf', 'rules'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'single.mdc'), path.join(root, '.windsurf', 'rules', 'single.mdc'));
    // A link that stays inside the root is read like the file it names.
    fs.writeFileSync(path.join(root, 'docs-rules.md'), 'Start at `src/render.ts`.\n');
    fs.symlinkSync(path.join(root, 'docs-rules.md'), path.join(root, '.windsurfrules'));
    // 3 GiB, sparse: a whole read would fail (or take gigabytes); only a prefix may be read.
    const agents = path.join(root, 'AGENTS.md');
    fs.writeFileSync(agents, '# Agents\nStart at `src/render.ts` and `src/missing.ts`.\n');
    fs.truncateSync(agents, 3 * 1024 ** 3);
    const repo = await openEmbedded(root, { watch: false });
    const client = await serve(repo);
    try {
      const a = await resource(client, 'gortex://audit');
      expect(a.files.map((f: { path: string }) => f.path)).toEqual(['AGENTS.md', '.windsurfrules']);
      const big = a.files[0];
      expect(big).toMatchObject({ path: 'AGENTS.md', bytes: 3 * 1024 ** 3, truncated: true, large: true });
      expect(big.bytes_read).toBeLessThan(big.bytes);
      expect(big.dead_paths).toEqual([{ ref: 'src/missing.ts', line: 2 }]);
      expect(a.files[1]).toMatchObject({ path: '.windsurfrules', truncated: false, dead_paths: [] });
      expect(a.refused.map((r: { path: string }) => r.path).sort()).toEqual(['.cursor/rules', '.windsurf/rules/single.mdc', 'CLAUDE.md']);
      for (const r of a.refused) expect(r.reason).toMatch(/outside the repository/);
      expect(a.notes.join('\n')).toMatch(/first \d+ bytes/);
      expect(JSON.stringify(a)).not.toMatch(/outsideOnlySymbol|outsideRuleSymbol|outsideSingleRule|secret\/path/);
    } finally {
      await client.close();
      repo.close();
    }
  });
});
