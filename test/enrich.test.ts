/**
 * Semantic enrichment with the real language servers (typescript-language-server, pyright) on
 * fixture repositories, through the real MCP server: call edges the resolver guessed, missed or
 * could not decide become `lsp_resolved`, calls through an interface gain `lsp_dispatch` edges to
 * the implementations, `index_health` reports the pass and its counts, an edited file is asked
 * again, and the pass is off unless asked for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { okJson, serveEmbedded, until } from './helpers/mcp';
import { gitRepo, useTempHome } from './helpers/repo';
import { Engine } from '../ts/engine/engine';
import { enrichment } from '../ts/lsp/enrich';
import { lspPool } from '../ts/lsp/pool';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { tempHome } from './helpers/repo';

const TSCONFIG = '{ "compilerOptions": { "strict": true, "target": "ES2020", "module": "commonjs", "types": [] }, "include": ["src"] }\n';
const SHAPES =
  'export interface Shape {\n  area(): number;\n}\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n' +
  'export class Circle implements Shape {\n  area(): number {\n    return 3;\n  }\n}\nexport function make(kind: string): Shape {\n  return kind === "s" ? new Square() : new Circle();\n}\n';
const STORE = 'export class Store {\n  format(n: number): string {\n    return `#${n}`;\n  }\n}\nexport class Log {\n  format(n: number): string {\n    return `${n}`;\n  }\n}\nexport function open(): Store {\n  return new Store();\n}\n';
const USE =
  "import { make } from './shapes';\nimport * as stores from './store';\n\nexport function total(): number {\n  const s = make('s');\n  return s.area();\n}\n\n" +
  'export function label(n: number): string {\n  const st = [stores.open()][0];\n  return st.format(n);\n}\n';

interface Row {
  caller: { name: string };
  origin: string;
}

/** The enrichment status of one server, once its pass has finished. */
async function finished(client: Client, server: string, files?: number): Promise<any> {
  return until(`the ${server} enrichment pass`, async () => {
    const health = await okJson(client, 'index_health', {});
    const row = Array.isArray(health.semantic_enrichment) ? health.semantic_enrichment.find((s: { server: string }) => s.server === server) : undefined;
    return row && row.state !== 'running' && (files === undefined || row.files_total === files) ? { ...row, health } : undefined;
  }, 60_000);
}

const callers = async (client: Client, id: string): Promise<string[]> =>
  (await okJson(client, 'get_callers', { id })).callers.map((c: Row) => `${c.caller.name} ${c.origin}`).sort();

describe('semantic enrichment', () => {
  useTempHome();
  const saved = process.env.GORTEX_LSP_ENRICH;
  const opened: EmbeddedRepo[] = [];
  const clients: Client[] = [];

  async function serve(root: string): Promise<Client> {
    const repo = await openEmbedded(root, { watch: true });
    opened.push(repo);
    const client = await serveEmbedded(repo);
    clients.push(client);
    return client;
  }

  beforeAll(() => {
    process.env.GORTEX_LSP_ENRICH = '1';
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.GORTEX_LSP_ENRICH;
    else process.env.GORTEX_LSP_ENRICH = saved;
    for (const c of clients) await c.close();
    for (const r of opened) r.close();
    await lspPool().shutdown();
  });

  it('confirms, adds and dispatches TypeScript call edges, and asks again about an edited file', async () => {
    const root = gitRepo('enrich-ts', { 'tsconfig.json': TSCONFIG, 'src/shapes.ts': SHAPES, 'src/store.ts': STORE, 'src/use.ts': USE });
    const client = await serve(root);
    const done = await finished(client, 'typescript');
    expect(done).toMatchObject({ state: 'completed', files_total: 3, files_done: 3, files_failed: 0 });
    expect(done.sites_answered).toBe(done.sites_asked);
    // make and Shape.area confirmed, Store.format added (the resolver saw two `format`s), open confirmed, two dispatch targets.
    expect(done.counts).toEqual({ confirmed: 3, corrected: 0, added: 1, dropped: 0, dispatch: 2 });
    expect(done.health.semantic_enrichment_ok).toBe(true);
    expect(done.health.semantic_counts).toEqual(done.counts);

    expect(await callers(client, 'src/store.ts::Store.format')).toEqual(['label lsp_resolved']);
    expect(await callers(client, 'src/store.ts::Log.format')).toEqual([]);
    expect(await callers(client, 'src/shapes.ts::Shape.area')).toEqual(['total lsp_resolved']);
    expect(await callers(client, 'src/shapes.ts::Square.area')).toEqual(['total lsp_dispatch']);
    expect(await callers(client, 'src/shapes.ts::Circle.area')).toEqual(['total lsp_dispatch']);
    // min_tier filters by the new tiers like any other.
    expect((await okJson(client, 'get_callers', { id: 'src/shapes.ts::Circle.area', min_tier: 'lsp_resolved' })).callers).toEqual([]);

    // An edit moves every reference of use.ts: it is the resolver's again until the pass over it ends.
    fs.writeFileSync(path.join(root, 'src/use.ts'), `// moved down a line\n${USE}`);
    const again = await finished(client, 'typescript', 1);
    expect(again).toMatchObject({ state: 'completed', files_done: 1 });
    expect(again.counts).toEqual({ confirmed: 3, corrected: 0, added: 1, dropped: 0, dispatch: 2 });
    expect(await callers(client, 'src/store.ts::Store.format')).toEqual(['label lsp_resolved']);

    // A definition that moves (Store.format two lines down) has its callers' file asked again with it.
    fs.writeFileSync(path.join(root, 'src/store.ts'), `// one\n// two\n${STORE}`);
    const moved = await finished(client, 'typescript', 2);
    expect(moved).toMatchObject({ state: 'completed', files_done: 2 });
    expect(await callers(client, 'src/store.ts::Store.format')).toEqual(['label lsp_resolved']);
  });

  it('adds the Python call pyright types and the resolver cannot decide', async () => {
    const root = gitRepo('enrich-py', {
      'store.py': 'class Store:\n    def save(self) -> int:\n        return 1\n\n\nclass Cache:\n    def save(self) -> int:\n        return 2\n',
      'use.py': 'from store import Store\n\nregistry: dict[str, Store] = {}\n\n\ndef run() -> int:\n    st = registry["x"]\n    return st.save()\n',
      // Asked after the first file, without being lent to pyright (it reads its workspace from the disk).
      'zed.py': 'from use import registry\n\n\ndef again() -> int:\n    return registry["y"].save()\n',
    });
    const client = await serve(root);
    expect(await callers(client, 'store.py::Store.save')).toEqual([]);
    const done = await finished(client, 'python');
    expect(done).toMatchObject({ state: 'completed', files_failed: 0 });
    expect(done.counts.added).toBe(2);
    expect(await callers(client, 'store.py::Store.save')).toEqual(['again lsp_resolved', 'run lsp_resolved']);
    expect(await callers(client, 'store.py::Cache.save')).toEqual([]);
  });

  /** A repository of 121 TypeScript files (a pass long enough to kill its server during it) and its index. */
  async function longPass(name: string): Promise<{ root: string; engine: Engine }> {
    const files: Record<string, string> = { 'tsconfig.json': TSCONFIG, 'src/shapes.ts': SHAPES };
    for (let i = 0; i < 120; i++) {
      files[`src/f${i}.ts`] = `import { make } from './shapes';\nexport function g${i}(): number {\n  return make('s').area() + h${i}();\n}\nfunction h${i}(): number {\n  return ${i};\n}\n`;
    }
    const root = gitRepo(name, files);
    const engine = new Engine({ home: tempHome(), threads: 2 });
    await engine.indexRepo(root);
    return { root, engine };
  }

  /** Runs `fn` with the per-server memory cap at its floor (64 MB: every server is over it). */
  function overCap<T>(fn: () => T): T {
    const saved = process.env.GORTEX_LSP_MAX_RSS_MB;
    process.env.GORTEX_LSP_MAX_RSS_MB = '64';
    try {
      return fn();
    } finally {
      if (saved === undefined) delete process.env.GORTEX_LSP_MAX_RSS_MB;
      else process.env.GORTEX_LSP_MAX_RSS_MB = saved;
    }
  }

  const typescriptStatus = (root: string) => enrichment().status(root).find((s) => s.server === 'typescript');

  it('hands the files left to a fresh server when its server is killed mid-pass (over the memory cap)', async () => {
    const { root, engine } = await longPass('enrich-killed-once');
    const pass = enrichment().schedule(root, engine, root);
    await until('two files asked', async () => ((typescriptStatus(root)?.files_done ?? 0) >= 2 ? true : undefined), 60_000);
    overCap(() => lspPool().sweep());
    await pass;
    const status = typescriptStatus(root)!;
    expect(status.server_restarts).toBe(1);
    expect(status.files_done).toBe(121);
    // At most the file asked while the server died goes unanswered.
    expect(status.files_failed).toBeLessThanOrEqual(1);
    expect(status.state).toMatch(/^(completed|partial)$/);
    expect(engine.semanticCounts(root).confirmed).toBeGreaterThan(100);
  });

  it('ends a pass whose server keeps being killed as failed, naming why, and keeps what it applied', async () => {
    const { root, engine } = await longPass('enrich-killed-always');
    let settled = false;
    const pass = enrichment()
      .schedule(root, engine, root)
      .finally(() => (settled = true));
    await until('two files asked', async () => ((typescriptStatus(root)?.files_done ?? 0) >= 2 ? true : undefined), 60_000);
    while (!settled) {
      overCap(() => lspPool().sweep());
      await new Promise((r) => setTimeout(r, 100));
    }
    await pass;
    const status = typescriptStatus(root)!;
    expect(status.state).toBe('failed');
    expect(status.error).toMatch(
      /^the typescript language server stopped 3 times, the last after \d+ of 121 files: killed: resident memory \d+ MB over the 64 MB cap \(GORTEX_LSP_MAX_RSS_MB\); restarted on next use$/,
    );
    expect(status.server_restarts).toBe(2);
    expect(status.files_done).toBeLessThan(121);
    expect(engine.semanticCounts(root).confirmed).toBeGreaterThan(0);
  });

  it('is off unless asked for, and says how to turn it on', async () => {
    process.env.GORTEX_LSP_ENRICH = '0';
    try {
      const root = gitRepo('enrich-off', { 'tsconfig.json': TSCONFIG, 'src/store.ts': STORE });
      const client = await serve(root);
      const health = await okJson(client, 'index_health', {});
      expect(health.semantic_enrichment).toEqual({ state: 'off', note: expect.stringMatching(/^off: set lsp\.enrich: true in the gortex config/) });
      expect(health.semantic_counts).toEqual({ confirmed: 0, corrected: 0, added: 0, dropped: 0, dispatch: 0 });
      expect(lspPool().status(root)).toEqual([]);
      // Answers that are not answers are refused by name, and change nothing.
      const ctx = await opened.at(-1)!.context();
      expect(() => ctx.engine.applySemantic(ctx.repo, [{ path: 'src/store.ts' } as never])).toThrow(/^invalid semantic answers: missing field `hash`/);
      expect(() => ctx.engine.callSites(ctx.repo, 'src/nope.ts')).toThrow(/src\/nope\.ts is not an indexed file of this repository/);
      expect(ctx.engine.semanticCounts(ctx.repo)).toEqual({ confirmed: 0, corrected: 0, added: 0, dropped: 0, dispatch: 0 });
    } finally {
      process.env.GORTEX_LSP_ENRICH = '1';
    }
  });
});
