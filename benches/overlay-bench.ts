// Overlay cost on a real corpus (default Kubernetes 1.20.2, non-vendor Go): for overlays of 1, 10
// and 100 files, how long a push takes to be queryable (overlay_push of every file, then the first
// query of the session, which builds the view) and the resident memory the view adds; then the
// p95 of base queries from a session without an overlay, with 0 and then 32 live overlay sessions.
// Everything goes through real MCP sessions (in-process SDK client ↔ server) on an embedded repository.
//
//   npm run bench:overlay [-- --corpus DIR] [--home DIR] [--queries N] [--out BENCHMARKS.md] [--from-json FILE]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { benchMain, fetchCorpora, flag, prng, ROOT, sample, type Json } from './common';

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const rssMb = (): number => {
  gc();
  gc();
  return Math.round(process.memoryUsage().rss / 2 ** 20);
};
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;
const round = (ms: number): number => Math.round(ms * 100) / 100;

async function run(o: { corpus?: string; home: string; queries: number }): Promise<Json> {
  const root = o.corpus ?? fetchCorpora(['k8s'], (m) => process.stderr.write(`${m}\n`)).get('k8s');
  if (!root) throw new Error('no corpus (pass --corpus DIR)');
  process.env.GORTEX_HOME = o.home;
  const { openEmbedded, embeddedWorkspace } = await import('../ts/workspace/embedded');
  const { createMcpServer } = await import('../ts/mcp/server');
  const t0 = Date.now();
  const repo = await openEmbedded(root, { watch: false });
  const openMs = Date.now() - t0;
  const clients: Client[] = [];
  const session = async (): Promise<Client> => {
    const server = createMcpServer(repo, { workspace: embeddedWorkspace(repo), env: {}, tools: 'full' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'overlay-bench', version: '1' });
    await client.connect(a);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<any> => {
    const r = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
    if (r.isError) throw new Error(`${name}: ${r.content[0]!.text}`);
    return JSON.parse(r.content[0]!.text);
  };
  const ctx = await repo.context();
  const files = ctx.engine.fileNodes(ctx.repo, ['function', 'method']).filter((f) => f.symbols > 0 && f.path.endsWith('.go') && !f.path.endsWith('_test.go')).map((f) => f.path);
  const functions = ctx.engine.query<{ results: { id: string }[] }>('search_symbols', { query: 'New', kind: 'function', limit: 200 }, { repo: ctx.repo }).results.map((r) => r.id);
  const base = await session();
  // Warm the base: search index, one traversal.
  await call(base, 'search_symbols', { query: 'warmup' });
  await call(base, 'get_callers', { id: functions[0]! });
  const baseRss = rssMb();
  const rand = prng(20261202);

  const sizes: Json[] = [];
  for (const n of [1, 10, 100]) {
    const picked = sample(files, n, rand);
    const client = await session();
    const before = rssMb();
    let t = performance.now();
    for (const [i, rel] of picked.entries()) {
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      await call(client, 'overlay_push', { path: rel, content: `${text}\nfunc GortexOverlayProbe${i}() int {\n\treturn ${i}\n}\n` });
    }
    const pushMs = performance.now() - t;
    t = performance.now();
    await call(client, 'get_symbol', { id: `${picked[0]}::GortexOverlayProbe0` });
    const queryableMs = performance.now() - t;
    t = performance.now();
    await call(client, 'get_callers', { id: functions[1]! });
    const warmMs = performance.now() - t;
    const after = rssMb();
    const first = (await call(client, 'overlay_list', {})).view;
    // The editor keeps typing: one more push to a file of the live view, then a query.
    const rel = picked[0]!;
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    t = performance.now();
    await call(client, 'overlay_push', { path: rel, content: `${text}\nfunc GortexOverlayProbe0() int {\n\treturn 0\n}\n\nfunc GortexOverlayNext() int {\n\treturn GortexOverlayProbe0()\n}\n` });
    await call(client, 'get_symbol', { id: `${rel}::GortexOverlayNext` });
    const nextMs = performance.now() - t;
    const afterNext = rssMb();
    const listed = { view: first, next: (await call(client, 'overlay_list', {})).view };
    await call(client, 'overlay_drop', {});
    const dropped = rssMb();
    sizes.push({ files: n, push_ms: round(pushMs), queryable_ms: round(queryableMs), push_to_queryable_ms: round(pushMs + queryableMs), warm_query_ms: round(warmMs), next_push_to_queryable_ms: round(nextMs), extra_rss_mb: after - before, next_push_extra_rss_mb: afterNext - after, rss_after_drop_mb: dropped - before, view: listed.view, next_view: listed.next });
    process.stderr.write(`${JSON.stringify(sizes.at(-1))}\n`);
  }

  const baseQueries = async (): Promise<Json> => {
    const times: number[] = [];
    const ids = sample(functions, o.queries, prng(7));
    for (const id of ids) {
      const t = performance.now();
      await call(base, 'get_callers', { id });
      times.push(performance.now() - t);
    }
    const search: number[] = [];
    for (const word of ['Pod', 'Node', 'Handler', 'Client', 'Config', 'Status', 'Volume', 'Service']) {
      for (let i = 0; i < Math.max(1, Math.floor(o.queries / 8)); i++) {
        const t = performance.now();
        await call(base, 'search_symbols', { query: word, limit: 20 });
        search.push(performance.now() - t);
      }
    }
    return { get_callers_p50_ms: round(percentile(times, 50)), get_callers_p95_ms: round(percentile(times, 95)), search_symbols_p95_ms: round(percentile(search, 95)) };
  };
  // What-if on the corpus: a definition renamed in one file (its callers elsewhere left behind),
  // previewed, then simulated as two steps (rename, then a body edit).
  const node = ctx.engine.query<{ node: { name: string; file_path: string; start_line: number } }>('get_symbol', { id: functions[2]! }, { repo: ctx.repo }).node;
  const target = { name: node.name, path: node.file_path, line: node.start_line };
  const line = fs.readFileSync(path.join(root, target.path), 'utf8').split('\n')[target.line - 1]!;
  const column = line.indexOf(target.name);
  const rename = { changes: { [target.path]: [{ range: { start: { line: target.line - 1, character: column }, end: { line: target.line - 1, character: column + target.name.length } }, newText: `${target.name}Renamed` }] } };
  const touchBody = { changes: { [target.path]: [{ range: { start: { line: target.line, character: 0 }, end: { line: target.line, character: 0 } }, newText: '\t// gortex what-if\n' }] } };
  let tp = performance.now();
  const preview = await call(base, 'preview_edit', { workspace_edit: rename });
  const previewMs = performance.now() - tp;
  tp = performance.now();
  const chain = await call(base, 'simulate_chain', { steps: [{ workspace_edit: rename }, { workspace_edit: touchBody }] });
  const chainMs = performance.now() - tp;
  const whatIf = { symbol: functions[2], preview_ms: round(previewMs), broken_callers: preview.broken_callers.length, simulate_2_steps_ms: round(chainMs), completed: chain.completed };
  process.stderr.write(`${JSON.stringify(whatIf)}\n`);
  const idle = await baseQueries();
  const live: Client[] = [];
  const t = performance.now();
  for (let i = 0; i < 32; i++) {
    const client = await session();
    const rel = files[(i * 97) % files.length]!;
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    await call(client, 'overlay_push', { path: rel, content: `${text}\nfunc GortexLiveProbe${i}() {}\n` });
    await call(client, 'get_symbol', { id: `${rel}::GortexLiveProbe${i}` });
    live.push(client);
  }
  const liveSetupMs = performance.now() - t;
  const withLive = await baseQueries();
  const liveRss = rssMb();
  for (const c of clients) await c.close();
  repo.close();
  return { corpus: path.basename(root), files: files.length, open_ms: openMs, base_rss_mb: baseRss, sizes, what_if: whatIf, base_queries: { no_overlays: idle, live_overlays_32: withLive }, live_sessions: 32, built_views_cap: Number(process.env.GORTEX_OVERLAY_MAX_VIEWS ?? 8), live_setup_ms: Math.round(liveSetupMs), rss_with_32_live_mb: liveRss };
}

function section(r: Json, m: Json, raw: string): string {
  const rows = (r.sizes as Json[]).map(
    (s) =>
      `| ${s.files} | ${s.push_ms} | ${s.queryable_ms}${s.view?.phases_ms?.base_tables ? ` (${s.view.phases_ms.base_tables} of it the base's lookup tables, built once)` : ''} | ${s.push_to_queryable_ms} | ${s.warm_query_ms} | ${s.extra_rss_mb} | ${s.view?.layout || '–'}, ${s.view?.owned_nodes ?? '–'} of ${s.view?.nodes ?? '–'} | ${s.view?.resolved_files ?? '–'} | ${s.next_push_to_queryable_ms} (${s.next_view?.layout || '–'}) | ${s.next_push_extra_rss_mb} |`,
  );
  const q = r.base_queries as Json;
  return [
    '## Overlays',
    '',
    `Regenerate: \`npm run bench:overlay\` (raw: \`${raw}\`). ${m.date.slice(0, 10)}, ${m.nproc} cores (${m.cpu}), Node ${m.node}. Corpus: ${r.corpus} (${r.files} Go files with functions), opened in ${(r.open_ms / 1000).toFixed(1)} s; base RSS ${r.base_rss_mb} MB.`,
    'Each overlay is pushed through a real MCP session (`overlay_push` per file, each file with one function appended), then queried: the first query builds the view.',
    '',
    '| files overlaid | push (ms, all files) | first query, view built (ms) | push → queryable (ms) | next query (ms) | extra RSS (MB) | graph: layout, nodes it holds of all | files resolved again | one more push → queryable, live view (ms, layout) | its extra RSS (MB) |',
    '|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|',
    ...rows,
    '',
    `Base queries from a session without an overlay (${q.no_overlays ? '' : ''}get_callers on sampled functions, search_symbols on common words):`,
    '',
    '| live overlay sessions | get_callers p50 (ms) | get_callers p95 (ms) | search_symbols p95 (ms) |',
    '|---:|---:|---:|---:|',
    `| 0 | ${q.no_overlays.get_callers_p50_ms} | ${q.no_overlays.get_callers_p95_ms} | ${q.no_overlays.search_symbols_p95_ms} |`,
    `| 32 (views built, at most ${r.built_views_cap} kept) | ${q.live_overlays_32.get_callers_p50_ms} | ${q.live_overlays_32.get_callers_p95_ms} | ${q.live_overlays_32.search_symbols_p95_ms} |`,
    '',
    `With 32 live sessions the process held ${r.rss_with_32_live_mb} MB (setting them up, each with its view built once, took ${(r.live_setup_ms / 1000).toFixed(1)} s).`,
    '',
    ...(r.what_if
      ? [
          `What-if on the same corpus: \`preview_edit\` of a one-line rename of \`${r.what_if.symbol}\` (${r.what_if.broken_callers} callers left unbound) took ${r.what_if.preview_ms} ms; \`simulate_chain\` of that rename and a body edit, ${r.what_if.simulate_2_steps_ms} ms (both build throwaway views; the second step updates its view in place).`,
          '',
        ]
      : []),
    "A view's graph is a layer over the base's (the overlaid files' nodes and the edges that changed; the rest read from the base),",
    "and it shares the base's resolver lookup tables: its cost is the files the overlay can affect, resolved again, plus what",
    "follows the repository's size: the lookup tables' maps, copied when the overlay adds or removes a declaration (every push",
    'above appends a function), and the symbol index a first search builds. A base that keeps no lookup tables builds them once,',
    'for its first view (the `base_tables` phase). RSS figures are the process\'s after a forced GC, and freed pages blur them;',
    '`overlay_probe` counts the live heap exactly (`benches/results/overlay-probe-*.md`).',
    'Queries from sessions without an overlay do not touch views: their latency is the same with 32 live overlay sessions.',
    '`cargo run --release -p gortex-index --example overlay_probe ROOT --home DIR FILE…` shows, for a body edit and an added declaration, the phases of one build and one update and the heap the view holds.',
    '',
  ].join('\n');
}

void benchMain({
  heading: 'Overlays',
  rawPrefix: 'overlay',
  options: {
    out: flag('--out', path.join(ROOT, 'BENCHMARKS.md')),
    ...(process.argv.includes('--from-json') ? { fromJson: flag('--from-json', '') } : {}),
    ...(process.argv.includes('--corpus') ? { corpus: path.resolve(flag('--corpus', '')) } : {}),
    home: path.resolve(flag('--home', fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-overlay-bench-')))),
    queries: Number(flag('--queries', '200')),
  },
  run,
  section,
});
