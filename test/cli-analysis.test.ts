/** `gortex clones` and `gortex analyze` end to end: the built CLI on a temp copy of the analysis fixtures. */
import { runCli } from './helpers/cli';
import { fixtureCopy, gitHistory, tempHome } from './helpers/repo';

/** The CLI on a temp copy of fixture `rel`: `run` gives its outcome, `json` its `--json` answer. */
function cliOn(rel: string, name: string) {
  const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
  const root = fixtureCopy(rel, name);
  const run = (args: string[]) => runCli([...args, '--repo', root], { env });
  const json = (args: string[]): any => {
    const r = run([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout);
  };
  return { run, json };
}

describe('gortex clones / analyze', () => {
  const { run, json } = cliOn('analysis', 'cliana');

  test('clones: clusters with locations as text, the same clusters as JSON', () => {
    const text = run(['clones', '--path-prefix', 'clones/src/']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^Cluster 1: 2 bodies, similarity 0\.913\n/);
    expect(text.stdout).toContain('function tallyInvoices  clones/src/invoices.ts:11-31  (159 tokens)');
    expect(text.stdout).toContain('function summarizeOrders  clones/src/orders.ts:18-38  (151 tokens)');
    const all = json(['clones', '--min-similarity', '0.95']);
    expect(all.clusters.map((c: any) => c.max_similarity)).toEqual([0.98, 0.959]);
    expect(json(['clones', '--include-tests']).clusters[0].size).toBe(3);
  });

  test('clones: a bad similarity is a usage error naming the flag or the range', () => {
    const notNumber = run(['clones', '--min-similarity', 'high']);
    expect(notNumber.status).toBe(2);
    expect(notNumber.stderr).toContain('--min-similarity must be a number');
    const low = run(['clones', '--min-similarity', '0.3']);
    expect(low.status).toBe(2);
    expect(low.stderr).toMatch(/min_similarity/);
  });

  test('analyze kinds lists every kind; analyze --kind prints a table or JSON', () => {
    const kinds = run(['analyze', 'kinds']);
    expect(kinds.status).toBe(0);
    for (const k of ['dead_code', 'hotspots', 'cycles', 'impact', 'health_score', 'routes']) expect(kinds.stdout).toMatch(new RegExp(`^${k}\\s`, 'm'));
    const cycles = run(['analyze', '--kind', 'cycles', '--arg', 'scope=imports', '--path-prefix', 'quality/ts/']);
    expect(cycles.stdout).toContain('medium imports cycle of 3: quality/ts/cycle/a.ts:1 → quality/ts/cycle/b.ts:1 → quality/ts/cycle/c.ts:1 → quality/ts/cycle/a.ts');
    const dead = json(['analyze', '--kind', 'dead_code', '--path-prefix', 'quality/ts/', '--limit', '3']);
    expect(dead.dead).toHaveLength(3);
    expect(dead.truncated).toBe(true);
    const would = json(['analyze', '--kind', 'would_create_cycle', '--arg', 'from=quality/ts/clean/math.ts', '--arg', 'to=quality/ts/clean/main.ts']);
    expect(would.would_create_cycle).toBe(true);
    const impact = json(['analyze', '--kind', 'impact', '--json-args', '{"target":{"symbol":"currentUser"}}']);
    expect(impact.rows[0].node.qual_name).toBe('currentUser');
    const health = run(['analyze', '--kind', 'health_score']);
    expect(health.stdout).toMatch(/^health \d+(\.\d)? \([A-F]\)\n/);
  });

  test('flow and taint: paths as readable chains, findings as JSON', () => {
    const flow = run(['flow', '--from', 'start#seed', '--to', 'finish#z']);
    expect(flow.status).toBe(0);
    expect(flow.stdout).toMatch(/^Path 1: 6 hops, confidence 0\.\d+\n  param seed in start \(dataflow\/flow\/chain\.ts:1\)\n/);
    expect(flow.stdout).toContain('—arg_of 0.7→ param z in finish');
    const taint = json(['taint', '--path-prefix', 'dataflow/']);
    expect(taint.total).toBe(4);
    const text = run(['taint', '--path-prefix', 'dataflow/web/']);
    expect(text.stdout).toMatch(/^Finding 1 \[sql\]: req\.query → query\(\) in getUser/);
    const bad = run(['flow', '--from', 'start#nope', '--to', 'finish']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('has no variable');
  });

  test('analyze: an unknown kind or option is a usage error that names the fix', () => {
    const unknown = run(['analyze', '--kind', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown kind "nope"');
    const option = run(['analyze', '--kind', 'cycles', '--arg', 'colour=2']);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain('analyze: unknown argument colour; accepted: kind,');
    const malformed = run(['analyze', '--kind', 'cycles', '--arg', 'scope']);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('must look like key=value');
  });
});

describe('gortex analyze: the graph-audit kinds on their planted fixture', () => {
  const { run, json } = cliOn('audit', 'audit');

  test('resolution_outcomes names one reason per planted call, as text and as JSON', () => {
    const text = run(['analyze', '--kind', 'resolution_outcomes', '--path-prefix', 'src/']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^4 unresolved references: ambiguous_multi_match 1 · candidate_out_of_scope 0 · cross_language_only 1 · stub_only 1 · no_definition 1\n/);
    expect(text.stdout).toMatch(/^ambiguous_multi_match\s+duplicated\s+src\/app\.ts:8\s+main$/m);
    const stub = json(['analyze', '--kind', 'resolution_outcomes', '--arg', 'reason=stub_only']);
    expect(stub.rows.map((r: any) => [r.name, r.from.qual_name, r.line])).toEqual([['writeFileSync', 'main', 10]]);
  });

  test('connectivity_health, edge_audit and tests_as_edges print their planted facts', () => {
    const conn = run(['analyze', '--kind', 'connectivity_health']);
    expect(conn.stdout).toContain('33 of 34 nodes linked (97.1 %): 1 isolated, 8 leaves');
    expect(conn.stdout).toContain('  island of 2 nodes: src/lonely.ts');
    const audit = run(['analyze', '--kind', 'edge_audit']);
    expect(audit.stdout).toContain('unimplemented interfaces: 1\n  Unimplemented  src/shapes.ts:6');
    expect(audit.stdout).toContain('functions only tests call: 1\n  onlyTested  src/shapes.ts:23');
    expect(audit.stdout).toContain('legacyDrain → Queue.drain  src/weak.ts:7 (text_matched)');
    const tests = run(['analyze', '--kind', 'tests_as_edges', '--arg', 'group_by=test']);
    expect(tests.stdout).toContain('describes_a_circle  tests/shapes.test.ts:3  2 edges → covers Circle, describe');
    const bad = run(['analyze', '--kind', 'tests_as_edges', '--arg', 'group_by=file']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/group_by: unknown[\s›]+variant `file`/);
  });
});

describe('gortex analyze: concurrency and unsafe code from the syntax trees', () => {
  const { run, json } = cliOn('concurrency', 'conc');

  test('goroutine_spawns and unclosed_channels print their planted facts', () => {
    const spawns = run(['analyze', '--kind', 'goroutine_spawns', '--path-prefix', 'go/']);
    expect(spawns.status).toBe(0);
    expect(spawns.stdout).toMatch(/^goroutine\s+func literal\s+go\/server\.go:35\s+fanOut\s+in a loop$/m);
    expect(spawns.stdout).toMatch(/^goroutine\s+s\.loop\s+go\/server\.go:18\s+Server\.Run\s+→ Server\.loop$/m);
    const unclosed = run(['analyze', '--kind', 'unclosed_channels']);
    expect(unclosed.stdout).toContain('leak  events (field): made at go/server.go:10; 1 sends, 1 range loops, never closed');
    expect(unclosed.stdout).toContain('2 never closed; 2 closed; 1 passed on or returned (left out)');
  });

  test('unsafe_patterns, cgo_users and wasm_users answer as JSON', () => {
    const unsafe = json(['analyze', '--kind', 'unsafe_patterns', '--path-prefix', 'rust/']);
    expect(unsafe.sites.map((s: any) => s.pattern)).toEqual(['unsafe fn', 'unsafe block', 'unsafe impl', 'extern block']);
    expect(unsafe.evidence).toBe('ast');
    expect(json(['analyze', '--kind', 'cgo_users']).files.map((f: any) => [f.path, f.names])).toEqual([['go/cgo.go', ['C.CString', 'C.free']]]);
    expect(json(['analyze', '--kind', 'wasm_users']).total).toBe(3);
  });

  test('race_writes and field_writers name the shared writes and the writers', () => {
    const races = run(['analyze', '--kind', 'race_writes']);
    expect(races.stdout).toMatch(/^UNGUARDED\s+count\s+captured\s+go\/race\.go:19\s+tally$/m);
    expect(races.stdout).toMatch(/^guarded\s+c\.total\s+field\s+go\/race\.go:24\s+tally$/m);
    const fields = run(['analyze', '--kind', 'field_writers', '--arg', 'field=count']);
    expect(fields.stdout).toContain('count: 3 writes (2 outside constructors) by Store.bump ×1, Store.constructor ×1, Store.reset ×1');
  });
});

describe('gortex analyze: annotations, log calls and string events', () => {
  const { run, json } = cliOn('events', 'events');

  test('log_events, event_emitters and annotation_users print their planted facts', () => {
    const logs = run(['analyze', '--kind', 'log_events', '--arg', 'level=error']);
    expect(logs.status).toBe(0);
    expect(logs.stdout).toMatch(/^error\s+1×\s+no port\s+go\/server\.go:14$/m);
    expect(logs.stdout).toContain('log calls by level: error 5');
    const events = run(['analyze', '--kind', 'event_emitters']);
    expect(events.stdout).toMatch(/^order:shipped\s+1 emit\s+0 listen\s+no listener here$/m);
    expect(events.stdout).toContain('3 emitted with no listener; 1 listened for and never emitted here');
    const config = run(['analyze', '--kind', 'config_readers', '--arg', 'key=db']);
    expect(config.stdout).toMatch(/^db\.host\s+3 reads\s+go\/config\.go:10, java\/Settings\.java:5, py\/settings\.py:2$/m);
    const annotations = json(['analyze', '--kind', 'annotation_users', '--arg', 'name=Override']);
    expect(annotations.annotations.map((a: any) => [a.annotation, a.symbols.map((s: any) => s.qual_name)])).toEqual([['Override', ['Orders.toString']]]);
  });
});

describe('gortex analyze: SQL in code against the schema', () => {
  const { run, json } = cliOn('sql', 'sqlfix');

  test('sql_call_sites, unreferenced_tables and orphan_tables print their planted facts', () => {
    const sites = run(['analyze', '--kind', 'sql_call_sites', '--path-prefix', 'go/']);
    expect(sites.status).toBe(0);
    expect(sites.stdout).toMatch(/^SELECT\s+users\s+go\/repo\.go:6\s+FindUser\s+SELECT id, name FROM users WHERE id = \$1$/m);
    const unreferenced = run(['analyze', '--kind', 'unreferenced_tables']);
    expect(unreferenced.stdout).toContain('audit_log  db/schema.sql:12  (read only by views: recent_audit)');
    expect(unreferenced.stdout).toContain('2 of 5 defined tables no SQL in code reads or writes');
    expect(json(['analyze', '--kind', 'orphan_tables']).tables.map((t: any) => t.table)).toEqual(['payments']);
  });

  test('sql_rebuild summarises the SQL layer', () => {
    const text = run(['analyze', '--kind', 'sql_rebuild']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('7 SQL strings of 8 literals beginning like SQL (1 not SQL): CREATE 1 · DELETE 1 · INSERT 1 · SELECT 3 · UPDATE 1');
    expect(text.stdout).toContain('5 tables defined, 4 used by code; 7 function-table links (4 reads, 3 writes) from 6 functions');
    expect(text.stdout).toContain('1 orphan tables, 2 unreferenced');
  });
});

describe('gortex analyze: manifests, images and kustomizations', () => {
  const { run, json } = cliOn('infra', 'infra');

  test('k8s_resources, images and kustomize print their planted facts', () => {
    const objects = run(['analyze', '--kind', 'k8s_resources']);
    expect(objects.status).toBe(0);
    expect(objects.stdout).toMatch(/^Service\s+shop\/api\s+v1\s+deploy\/base\/deployment\.yaml:17$/m);
    const images = run(['analyze', '--kind', 'images']);
    expect(images.stdout).toMatch(/^postgres\s+latest\s+UNPINNED\s+docker-compose\.yml:3$/m);
    expect(images.stdout).toContain('6 images, 3 unpinned');
    const kustomize = json(['analyze', '--kind', 'kustomize']);
    expect(kustomize.kustomizations.map((k: any) => [k.path, k.missing])).toEqual([
      ['deploy/base/kustomization.yaml', ['configmap.yaml']],
      ['deploy/overlays/prod/kustomization.yaml', []],
    ]);
  });
});

describe('gortex analyze: the errors a function can surface', () => {
  const { run } = cliOn('errors', 'errs');

  test('error_surface traces a function and ranks the raisers', () => {
    const traced = run(['analyze', '--kind', 'error_surface', '--arg', 'symbol=handler']);
    expect(traced.status).toBe(0);
    expect(traced.stdout).toMatch(/^handler can surface 3 errors:$/m);
    expect(traced.stdout).toMatch(/^NotFound\s+2 calls deep\s+py\/service\.py:8\s+fetch → load$/m);
    const raisers = run(['analyze', '--kind', 'error_surface']);
    expect(raisers.stdout).toContain('Get  go/store.go:10: ErrNotFound, error: bad id %d');
  });
});

describe('gortex analyze: data models', () => {
  const { run } = cliOn('models', 'models');

  test('models lists each framework\'s models with its evidence', () => {
    const models = run(['analyze', '--kind', 'models']);
    expect(models.status).toBe(0);
    expect(models.stdout).toMatch(/^gorm\s+Product\s+go\/models\.go:5\s+embeds gorm\.Model\s+2 fields$/m);
    expect(models.stdout).toContain('6 models (django 2 · gorm 1 · jpa 1 · pydantic 1 · typeorm 1)');
  });
});

describe('gortex analyze: UI components', () => {
  const { run, json } = cliOn('components', 'components');

  test('components lists every framework\'s components with what they render', () => {
    const text = run(['analyze', '--kind', 'components', '--arg', 'framework=react']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^react\s+App\s+web\/src\/App\.tsx:3\s+rendered by 0\s+used by 0\s+renders Button, Icon, Legacy$/m);
    expect(text.stdout).toMatch(/^react\s+Button\s+web\/src\/Button\.tsx:4\s+rendered by 2\s+used by 3\s*$/m);
    expect(text.stdout).toContain('7 UI components (react 7); 3 used by nothing: components/web/src/App.tsx::App, components/web/src/Button.tsx::Field, components/web/src/Button.tsx::Pure');
    const all = json(['analyze', '--kind', 'components']);
    expect(Object.keys(all.by_framework)).toEqual(['angular', 'blazor', 'compose', 'flutter', 'lit', 'react', 'solid', 'svelte', 'swiftui', 'vue', 'web_component']);
    const bad = run(['analyze', '--kind', 'components', '--arg', 'framework=backbone']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('framework "backbone" is not a UI framework');
  });
});

describe('gortex analyze: dbt models', () => {
  const { run } = cliOn('dbt', 'dbt');

  test('dbt_models lists each model with its lineage and the references that do not hold', () => {
    const text = run(['analyze', '--kind', 'dbt_models']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^stg_orders\s+view\s+analytics\/models\/staging\/stg_orders\.sql\s+sources shop\.orders\s+read by 2\s*$/m);
    expect(text.stdout).toContain('missing_ref: revenue (analytics/models/marts/revenue.sql:5) → stg_refunds');
    expect(text.stdout).toContain('undeclared_source: stg_payments (analytics/models/staging/stg_payments.sql:2) → shop.payments');
    expect(text.stdout).toContain('5 models in 1 projects; 2 problems; leaves: customer_orders, revenue, stg_payments');
  });
});

describe('gortex analyze: emitted strings and stale feature flags', () => {
  const { run } = cliOn('strings', 'strs');

  test('string_emitters prints each string with its context, count and sites', () => {
    const text = run(['analyze', '--kind', 'string_emitters', '--arg', 'context=metric']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^metric\s+3×\s+http_requests_total\s+counter\s+app\.py:5, metrics\.go:10, web\.ts:4\s*$/m);
    expect(text.stdout).toContain('distinct strings by context: metric 5');
  });

  test('stale_flags ages each flag by its checks in git', () => {
    const root = gitHistory('flags', [
      { author: 'Alice', date: '2020-01-01T00:00:00Z', message: 'checkout flag', files: { 'src/checkout.ts': "export const old = (ld: LD, u: U) => ld.boolVariation('old-checkout', u, false);\n" } },
      { author: 'Bob', date: '2023-06-01T00:00:00Z', message: 'pricing flag', files: { 'src/pricing.ts': "export const on = (flags: Flags) => flags.isEnabled('new-pricing');\n" } },
    ]);
    const text = runCli(['analyze', '--kind', 'stale_flags', '--arg', 'all=true', '--repo', root], { env: { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' } });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^1,247 days\s+launchdarkly\s+old-checkout\s+1 checks\s+stale\s+2020-01-01 \S+ Alice: checkout flag\s*$/m);
    expect(text.stdout).toMatch(/^0 days\s+internal\s+new-pricing\s+1 checks\s+2023-06-01 \S+ Bob: pricing flag\s*$/m);
    expect(text.stdout).toContain('1 of 2 flags untouched for 365 days as of 2023-06-01');
  });
});

describe('gortex analyze: framework-dispatch edges', () => {
  const { run } = cliOn('synth', 'synth');

  test('synthesizers lists each pass with its edges, and get_callers marks the framework calls', () => {
    const text = run(['analyze', '--kind', 'synthesizers']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^http_route: 5 edges to 5 targets \(ast_resolved 5\)$/m);
    expect(text.stdout).toContain('  start -calls-> listUsers  web/server.ts:27');
    expect(text.stdout).toContain('  AppModule -instantiates-> UsersService  web/app.module.ts:7');
    expect(text.stdout).toContain('16 synthesized edges; passes: http_route, event_handler, jsx_render, di_provider, di_depends, pytest_fixture');
    const called = run(['call', 'get_callers', '--arg', 'id=py/tests/conftest.py::client']);
    expect(called.status).toBe(0);
    const callers = JSON.parse(called.stdout);
    expect(callers.callers.map((c: any) => [c.caller.file_path, c.caller.qual_name, c.via])).toEqual([
      // An override receives the fixture it overrides.
      ['py/tests/override/test_override.py', 'client', 'pytest_fixture'],
      ['py/tests/test_api.py', 'user', 'pytest_fixture'],
      ['py/tests/test_api.py', 'test_health', 'pytest_fixture'],
    ]);
  });
});

describe('gortex analyze: business domains', () => {
  const { run } = cliOn('domain', 'domains');

  test('domain prints each domain with its roles and dependencies', () => {
    const text = run(['analyze', '--kind', 'domain']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('order: 6 types in src/orders — dto CreateOrderRequest; model Order, OrderItem; repository IOrderRepository, OrderRepository; service OrderService');
    expect(text.stdout).toContain('  depends on payment (2), user (2)');
    expect(text.stdout).toContain('3 domains over 14 types (4 unassigned)');
  });
});
