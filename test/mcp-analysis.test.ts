/**
 * The analysis tools over the real `gortex mcp` stdio server, on one temp repository holding every
 * `test/fixtures/analysis/*` fixture (planted dead code, cycles, clone families, two subsystems,
 * entry points, routes): `analyze` kinds, `find_clones`, `get_communities`, `get_processes`,
 * `explain_change_impact`, the compact surface's operations, GCX, and bad input.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startStdio } from './helpers/mcp';
import { ANALYZE_KINDS } from '../ts/tools/analysis';
import { decodeGcx } from '../ts/wire/gcx';
import { fixtureCopy } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

describe('analysis tools over gortex mcp (stdio)', () => {
  const root = fixtureCopy('analysis', 'ana');
  let client: Client;
  let compact: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
    compact = await startStdio(root, 'compact');
  });
  afterAll(async () => {
    await client.close();
    await compact.close();
  });
  const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<TextResult> =>
    (await c.callTool({ name, arguments: args })) as TextResult;
  const ok = async (name: string, args: Record<string, unknown>, c: Client = client): Promise<any> => {
    const r = await call(c, name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
    return JSON.parse(r.content[0]!.text);
  };
  const refusal = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const r = await call(client, name, args);
    expect(r.isError).toBe(true);
    return r.content[0]!.text;
  };

  test('analyze kind=kinds lists exactly the kinds the tool schema offers', async () => {
    const r = await ok('analyze', { kind: 'kinds' });
    expect(r.kinds.map((k: any) => k.kind)).toEqual(ANALYZE_KINDS.filter((k) => k !== 'untested' && k !== 'kinds'));
    expect(r.kinds.every((k: any) => k.description.length > 20)).toBe(true);
  });

  test('dead_code: the planted dead symbols, live and framework code left alone', async () => {
    const r = await ok('analyze', { kind: 'dead_code', path_prefix: 'quality/', limit: 100 });
    const high = r.dead.filter((d: any) => d.confidence === 'high').map((d: any) => d.symbol.qual_name).sort();
    expect(high).toEqual(['MemoryStore.unusedPrivate', 'Orphan', 'Repo._unused_method', '_InternalType', '_countdown', '_unused_helper', 'unusedHelper']);
    const all = r.dead.map((d: any) => d.symbol.qual_name);
    for (const live of ['main', 'Repo.add', 'MemoryStore.save', 'twice']) expect(all).not.toContain(live);
    expect(r.blind_spots).toMatch(/not indexed/);
  });

  test('cycles: the planted import cycle a → b → c → a with its closed path', async () => {
    const r = await ok('analyze', { kind: 'cycles', scope: 'imports', path_prefix: 'quality/ts/' });
    expect(r.cycles).toHaveLength(1);
    const cycle = r.cycles[0];
    expect(cycle.members.map((m: any) => m.file_path)).toEqual(['quality/ts/cycle/a.ts', 'quality/ts/cycle/b.ts', 'quality/ts/cycle/c.ts']);
    expect(cycle.path.map((s: any) => `${s.from}>${s.to}`)).toHaveLength(3);
    expect(cycle.path[0].from).toBe(cycle.path[2].to);
    const would = await ok('analyze', { kind: 'would_create_cycle', from: 'quality/ts/clean/math.ts', to: 'quality/ts/clean/main.ts' });
    expect(would.would_create_cycle).toBe(true);
    const wouldNot = await ok('analyze', { kind: 'would_create_cycle', from: 'quality/ts/clean/main.ts', to: 'quality/ts/clean/math.ts' });
    expect(wouldNot.already_exists || !wouldNot.would_create_cycle).toBe(true);
  });

  test('find_clones: the three planted families, nothing else', async () => {
    const r = await ok('find_clones', {});
    const families = r.clusters.map((c: any) => c.members.map((m: any) => m.qual_name).sort().join(' + ')).sort();
    expect(families).toEqual(['Report.averageAtLeast + Stats.meanAbove', 'plan_restock + schedule_reorders', 'summarizeOrders + tallyInvoices']);
    for (const c of r.clusters) expect(c.min_similarity).toBeGreaterThanOrEqual(0.82);
  });

  test('communities: the two subsystems come out with directory + hub labels', async () => {
    const list = await ok('get_communities', { path_prefix: 'structure/' });
    expect(list.communities.map((c: any) => c.label)).toEqual(['structure/src/auth · auditLog', 'structure/src/billing · totalFor']);
    const one = await ok('get_communities', { id: list.communities[1].id });
    expect(one.community.members.every((m: any) => m.file_path.startsWith('structure/src/billing/'))).toBe(true);
    expect(one.community.neighbours.map((n: any) => n.label)).toContain('structure/src/auth · auditLog');
  });

  test('processes: main in structure/ traces its call tree; one trace by id', async () => {
    const list = await ok('get_processes', { limit: 100 });
    const main = list.processes.find((p: any) => p.name === 'main' && p.entry.file_path === 'structure/src/main.ts');
    expect(main).toBeDefined();
    const trace = await ok('get_processes', { id: main.id });
    expect(trace.steps[0]).toMatchObject({ depth: 0 });
    expect(trace.steps[0].qual_name).toBe('main');
    expect(trace.steps.map((s: any) => s.qual_name)).toEqual(expect.arrayContaining(['login', 'auditLog', 'issueToken']));
    expect(list.processes.every((p: any) => p.kind === 'product')).toBe(true);
  });

  test('explain_change_impact: dependents by depth, the covering test, flows and communities', async () => {
    const r = await ok('explain_change_impact', { id: 'currentUser' });
    expect(r.risk).toMatch(/^(low|medium|high|critical)$/);
    expect(r.levels[0].depth).toBe(1);
    expect(r.affected_tests.map((t: any) => t.qual_name ?? t.id)).toEqual(expect.arrayContaining([expect.stringMatching(/session/)]));
    expect(r.affected_processes.map((p: any) => p.name)).toContain('main');
    expect(r.communities_touched).toBeGreaterThanOrEqual(1);
  });

  test('routes, env vars, todos and health_score answer from the same repository', async () => {
    const routes = await ok('analyze', { kind: 'routes', path_prefix: 'sites/' });
    expect(routes.total).toBe(9);
    const env = await ok('analyze', { kind: 'env_var_users', name: 'PORT' });
    expect(env.variables[0].reads).toBe(2);
    const todos = await ok('analyze', { kind: 'todos', path_prefix: 'sites/' });
    expect(todos.by_assignee).toMatchObject({ alice: 1, bob: 1 });
    const health = await ok('analyze', { kind: 'health_score' });
    expect(health.components.map((c: any) => c.name)).toEqual(['test_reach', 'dead_code', 'cycles', 'structure', 'resolution']);
    expect(health.grade).toMatch(/^[A-F]$/);
  });

  test('dataflow: request input reaches SQL in every language; values flow across three functions', async () => {
    const taint = await ok('taint_paths', { path_prefix: 'dataflow/' });
    expect(taint.findings.map((f: any) => `${f.sink.function}:${f.sink.name}`).sort()).toEqual([
      'OrderServlet.find:executeQuery',
      'getUser:query',
      'lookup:Query',
      'search:execute',
    ]);
    expect(taint.findings.every((f: any) => f.category === 'sql')).toBe(true);
    const flow = await ok('flow_between', { source: 'start#seed', sink: 'finish#z' });
    expect(flow.paths[0].hops.map((h: any) => h.kind)).toEqual(['value_flow', 'value_flow', 'arg_of', 'value_flow', 'value_flow', 'arg_of']);
    const none = await ok('flow_between', { source: 'unrelated', sink: 'finish' });
    expect(none.paths).toEqual([]);
    expect(none.diagnosis).toBeDefined();
    const viaFacade = await ok('trace', { operation: 'flow', target: { symbol: 'start#seed' }, to: { symbol: 'finish#z' } }, compact);
    expect(viaFacade.paths.length).toBeGreaterThan(0);
  });

  test('graph audits: why references stay unresolved, weak edges, islands, tests as edges', async () => {
    // legacy.ts calls x.flush() on an untyped receiver while two private flush functions exist.
    const outcomes = await ok('analyze', { kind: 'resolution_outcomes', path_prefix: 'quality/ts/', reason: 'ambiguous_multi_match' });
    expect(outcomes.rows.map((r: any) => [r.name, r.from.qual_name, r.candidates])).toEqual([['flush', 'legacy', 2]]);
    expect(outcomes.by_reason.reduce((n: number, r: any) => n + r.count, 0)).toBe(outcomes.total);
    const audit = await ok('analyze', { kind: 'edge_audit', path_prefix: 'quality/' });
    expect(audit.test_only_targets.sample.map((n: any) => n.qual_name)).toEqual(['Five', 'makeStore', 'run']);
    expect(audit.unimplemented_interfaces.count).toBe(0);
    const health = await ok('analyze', { kind: 'connectivity_health', path_prefix: 'quality/' });
    expect(health.effective_nodes + health.isolated).toBe(health.nominal_nodes);
    expect(health.components.count).toBeGreaterThan(1);
    const tests = await ok('analyze', { operation: 'tests_as_edges', arguments: { path_prefix: 'quality/py/' } }, compact);
    expect(tests.rows.map((r: any) => [r.node.qual_name, r.tests.map((t: any) => t.qual_name)])).toEqual([['top', ['test_top']]]);
  });

  test('the compact surface reaches the analyses as operations', async () => {
    const dead = await ok('analyze', { operation: 'dead_code', arguments: { path_prefix: 'quality/ts/' } }, compact);
    expect(dead.dead.map((d: any) => d.symbol.qual_name)).toContain('unusedHelper');
    const clones = await ok('analyze', { operation: 'clones', arguments: { path_prefix: 'clones/src/' } }, compact);
    expect(clones.clusters.map((c: any) => c.members.map((m: any) => m.qual_name).sort())).toEqual([['summarizeOrders', 'tallyInvoices']]);
    const impact = await ok('change', { operation: 'impact', arguments: { id: 'currentUser' } }, compact);
    expect(impact.levels.length).toBeGreaterThan(0);
  });

  test('GCX: analysis results encode smaller than JSON and decode', async () => {
    const r = await call(client, 'analyze', { kind: 'dead_code', format: 'gcx' });
    expect(r.isError).toBeFalsy();
    const text = r.content[0]!.text;
    expect(text.startsWith('GCX1')).toBe(true);
    const json = JSON.stringify(await ok('analyze', { kind: 'dead_code' }));
    expect(Buffer.byteLength(text)).toBeLessThan(Buffer.byteLength(json));
    expect(() => decodeGcx(text)).not.toThrow();
  });

  test('bad input is refused with what was wrong, and the session keeps serving', async () => {
    expect(await refusal('analyze', { kind: 'nope' })).toMatch(/kind/);
    expect(await refusal('analyze', { kind: 'cycles', scope: 'files' })).toMatch(/scope/);
    expect(await refusal('find_clones', { min_similarity: 0.3 })).toMatch(/min_similarity/);
    expect(await refusal('get_communities', { id: 999 })).toMatch(/999/);
    expect(await refusal('analyze', { kind: 'clusters', algorithm: 'kmeans' })).toMatch(/leiden, louvain, spectral/);
    expect(await refusal('analyze', { kind: 'impact', target: { symbol: 'noSuchThing' } })).toMatch(/noSuchThing/);
    expect(await refusal('explain_change_impact', { id: 'currentUser', depth: 4 })).toMatch(/depth/);
    expect((await ok('analyze', { kind: 'hotspots' })).hotspots).toBeDefined();
  });
});

/** A full-surface client on `root` and a compact one on `compactRoot`, started before the enclosing block's tests and closed after. */
function fullAndCompact(root: string, compactRoot: string = root): { full: () => Client; compact: () => Client } {
  let full: Client;
  let compact: Client;
  beforeAll(async () => {
    full = await startStdio(root, 'full');
    compact = await startStdio(compactRoot, 'compact');
  });
  afterAll(async () => {
    await full.close();
    await compact.close();
  });
  return { full: () => full, compact: () => compact };
}

/** The text of a tool's answer; a refusal fails the test with its message. */
async function answerText(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await c.callTool({ name, arguments: args })) as TextResult;
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return r.content[0]!.text;
}

describe('UI components over gortex mcp (stdio)', () => {
  const clients = fullAndCompact(fixtureCopy('components', 'uicomp'));
  const ok = answerText;

  test('find_usages keeps usages from inside components and names the component', async () => {
    const r = JSON.parse(await ok(clients.full(), 'find_usages', { id: 'web/src/Button.tsx::Icon', flavor: 'component' }));
    // Each JSX use is a reference and, beside it, the render React performs (`via: jsx_render`).
    expect(r.usages.map((u: any) => [u.from, u.from_ui_component, u.from_type_flavor ?? null, u.kind, u.via ?? null])).toEqual([
      ['uicomp/web/src/App.tsx::App', 'uicomp/web/src/App.tsx::App', null, 'calls', 'jsx_render'],
      ['uicomp/web/src/App.tsx::App', 'uicomp/web/src/App.tsx::App', null, 'references', null],
      ['uicomp/web/src/Button.tsx::Legacy.render', 'uicomp/web/src/Button.tsx::Legacy', 'class', 'calls', 'jsx_render'],
      ['uicomp/web/src/Button.tsx::Legacy.render', 'uicomp/web/src/Button.tsx::Legacy', 'class', 'references', null],
    ]);
    const gcx = await ok(clients.full(), 'find_usages', { id: 'web/src/Button.tsx::Icon', flavor: 'component', format: 'gcx' });
    expect(gcx).toContain('from_ui_component');
    expect(gcx).toContain('uicomp/web/src/Button.tsx::Legacy');
    expect(gcx).toContain('jsx_render');
  });

  test('the compact analyze operation lists the components; search finds them by flavor', async () => {
    const r = JSON.parse(await ok(clients.compact(), 'analyze', { operation: 'components', arguments: { framework: 'vue' } }));
    expect(r.components.map((c: any) => [c.component.name, c.renders])).toEqual([
      ['UserCard', []],
      ['UserList', ['uicomp/vue/UserCard.vue::UserCard']],
    ]);
    const found = JSON.parse(await ok(clients.full(), 'search_symbols', { query: 'Greeting flavor:component' }));
    expect([found.results[0].id, found.results[0].ui_framework]).toEqual(['uicomp/android/Greeting.kt::Greeting', 'compose']);
    // `plainHelper` in the same file is no component: only components pass the flavor.
    expect(found.results.every((x: any) => x.ui_framework === 'compose')).toBe(true);
  });
});

describe('named detector bundles and emitted strings over gortex mcp (stdio)', () => {
  const root = fixtureCopy('review', 'bundles');
  // A project bundle in .gortex.yaml: the MCP tool hands it to the engine.
  fs.writeFileSync(path.join(root, '.gortex.yaml'), 'queries:\n  - name: db-safety\n    description: SQL we build by hand\n    detectors: [sql-string-concat, loop-query]\n    min_severity: critical\n');
  const clients = fullAndCompact(root, fixtureCopy('strings', 'emitted'));
  const ok = async (c: Client, name: string, args: Record<string, unknown>): Promise<any> => JSON.parse(await answerText(c, name, args));

  test('the project bundle of .gortex.yaml is listed and runs with its severity floor', async () => {
    const list = await ok(clients.full(), 'analyze', { kind: 'named' });
    expect(list.queries.find((q: any) => q.name === 'db-safety')).toEqual({
      name: 'db-safety',
      description: 'SQL we build by hand',
      detectors: ['loop-query', 'sql-string-concat'],
      source: 'config',
    });
    const run = await ok(clients.full(), 'analyze', { kind: 'named', name: 'db-safety' });
    expect(run.total).toBeGreaterThan(0);
    expect(new Set(run.matches.map((m: any) => `${m.detector} ${m.severity}`))).toEqual(new Set(['sql-string-concat critical']));
    const bad = (await clients.full().callTool({ name: 'analyze', arguments: { kind: 'named', name: 'nope' } })) as TextResult;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('db-safety');
  });

  test('the compact analyze operation groups emitted strings by value', async () => {
    const r = await ok(clients.compact(), 'analyze', { operation: 'string_emitters', arguments: { context: 'error_msg', min_emits: 2 } });
    expect(r.strings.map((s: any) => [s.value, s.emits])).toEqual([['user not found', 6]]);
  });
});
