/**
 * The daemon's `/v1` surface against what the official web UI reads (test/helpers/web-ui-schemas.ts,
 * written from the contract): a real daemon tracking two repositories, every route and the six
 * tool calls validated by JSON Schema, with the graph's own facts checked beside the shapes —
 * both repositories present, a guard broken, a change in the activity feed, ids routed to the
 * repository that owns them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { runCli } from './helpers/cli';
import { until } from './helpers/mcp';
import { daemonWorld, gitFixture } from './helpers/daemon';
import * as schemas from './helpers/web-ui-schemas';

const ajv = new Ajv({ allErrors: true, strict: false });

/** Fails with the schema errors when `value` does not match. */
function expectShape(schema: Record<string, unknown>, value: unknown, what: string): void {
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`${what} does not match the web UI's contract: ${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}

describe('the web UI contract over a daemon tracking two repositories', () => {
  const w = daemonWorld();
  const web = gitFixture('query/app-ts', 'uiweb');
  const py = gitFixture('query/app-py', 'uipy');
  let url: string;
  const get = async (route: string): Promise<any> => {
    const res = await fetch(`${url}${route}`, { headers: { 'content-type': 'application/json' } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${body}`);
    return JSON.parse(body);
  };
  /** A tool call as the UI makes it: the envelope checked, the JSON inside returned. */
  const tool = async (name: string, args: Record<string, unknown>, query = ''): Promise<any> => {
    const res = await fetch(`${url}/v1/tools/${name}${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
    const envelope: any = await res.json();
    expectShape(schemas.callToolResult, envelope, `${name}'s envelope`);
    if (res.status !== 200 || envelope.isError) throw new Error(`${name} failed (${res.status}): ${envelope.content[0].text}`);
    const parsed = JSON.parse(envelope.content.map((c: { text: string }) => c.text).join('\n'));
    expectShape(schemas.tools[name] ?? {}, parsed, `${name}'s answer`);
    return parsed;
  };

  beforeAll(async () => {
    fs.writeFileSync(
      path.join(web, '.gortex.yaml'),
      ['guards:', '  rules:', '    - name: render-not-shapes', '      kind: boundary', '      source: src/render.ts', '      target: src/shapes.ts', '    - name: cli-not-render', '      kind: boundary', '      source: src/cli.ts', '      target: src/render.ts', '      severity: warn', ''].join('\n'),
    );
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env: w.env, cwd: web });
    expect(started.status).toBe(0);
    expect(runCli(['track', py], { env: w.env }).status).toBe(0);
    const status = await until('both repositories ready', async () => {
      const r = runCli(['daemon', 'status', '--json'], { env: w.env });
      const s = r.status === 0 ? JSON.parse(r.stdout) : undefined;
      return s && s.repos.length === 2 && s.repos.every((x: any) => x.phase === 'ready') ? s : undefined;
    }, 30_000);
    url = status.http.url;
  });
  afterAll(() => {
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('every route answers the shape the UI reads, with both repositories in it', async () => {
    for (const [route, schema] of Object.entries(schemas.routes)) expectShape(schema, await get(route), route);

    const repos = (await get('/v1/repos')).repos;
    expect(repos.map((r: any) => r.id)).toEqual(['uipy', 'uiweb']);
    expect(repos.find((r: any) => r.id === 'uiweb')).toMatchObject({ lang: 'typescript', files: 10 });
    expect(repos.find((r: any) => r.id === 'uipy').lang).toBe('python');
    expect(repos.every((r: any) => r.nodes > 0 && r.funcs > 0 && /^#[0-9a-f]{6}$/.test(r.color))).toBe(true);

    const dash = await get('/v1/dashboard');
    expect(dash.stats.repos).toBe(2);
    expect(dash.stats.total_nodes).toBe(repos.reduce((n: number, r: any) => n + r.nodes, 0));
    expect(dash.languages.map((l: any) => l.name).sort()).toEqual(['json', 'python', 'typescript', 'yaml']);
    expect(dash.kinds.find((k: any) => k.name === 'function').count).toBeGreaterThan(5);
    expect(dash.stats.caveats).toBe(dash.caveats.length);

    // A node is drawn only when its repo_prefix names a repository of /v1/repos.
    const graph = await get('/v1/graph');
    // (External stubs have none: the UI leaves them out.)
    expect(new Set(graph.nodes.map((n: any) => n.repo_prefix))).toEqual(new Set(['', 'uipy', 'uiweb']));
    expect(graph.nodes.filter((n: any) => n.repo_prefix === '').every((n: any) => n.id.startsWith('external::'))).toBe(true);
    const ids = new Set(graph.nodes.map((n: any) => n.id));
    expect(ids.size).toBe(graph.nodes.length);
    // One edge per (from, to, kind), with the number of sites it stands for.
    const keys = new Set(graph.edges.map((e: any) => `${e.from} ${e.to} ${e.kind}`));
    expect(keys.size).toBe(graph.edges.length);
    expect(graph.edges.every((e: any) => Number.isInteger(e.count) && e.count >= 1)).toBe(true);
    expect(graph.edges.some((e: any) => e.count > 1)).toBe(true);
    expect(graph.edges.every((e: any) => ids.has(e.from) && ids.has(e.to))).toBe(true);
    expect(graph.stats.total_nodes).toBe(dash.stats.total_nodes);
    const small = await get('/v1/graph?repo=uiweb&max_nodes=5');
    expect(small.nodes).toHaveLength(5);
    expect(small.truncated).toBe(true);
    expect(small.nodes.every((n: any) => n.repo_prefix === 'uiweb')).toBe(true);
    // The best-connected nodes are kept.
    const degrees = graph.nodes.filter((n: any) => n.repo_prefix === 'uiweb').map((n: any) => n.degree).sort((a: number, b: number) => b - a);
    expect(Math.min(...small.nodes.map((n: any) => n.degree))).toBe(degrees[4]);

    const guards = (await get('/v1/guards')).guards;
    expect(guards).toEqual([
      expect.objectContaining({ name: 'render-not-shapes', status: 'violated', repo: 'uiweb' }),
      expect.objectContaining({ name: 'cli-not-render', status: 'ok', hits: 0 }),
    ]);
    expect(guards[0].hits).toBeGreaterThan(0);
    const caveats = (await get('/v1/caveats')).caveats;
    expect(caveats.filter((c: any) => c.severity === 'boundary').map((c: any) => c.repo_prefix)).toContain('uiweb');

    const communities = await get('/v1/communities');
    expect(communities.communities.length).toBeGreaterThan(0);
    expect(communities.communities.every((c: any) => c.symbols >= 2 && c.files >= 1)).toBe(true);

    // Contracts of both repositories (the shapes were checked above; the matching has its own golden in contracts.test.ts).
    const contracts = (await get('/v1/contracts')).contracts;
    expect(contracts.every((c: any) => c.locations.every((l: any) => ['uipy', 'uiweb'].includes(l.repo_prefix)))).toBe(true);
    const validation = await get('/v1/contracts/validate');
    expect(validation.summary.total).toBe(validation.issues.length);

    const narrowed = await get('/v1/repos?repo=uipy');
    expect(narrowed.repos.map((r: any) => r.id)).toEqual(['uipy']);
    const unknown = await fetch(`${url}/v1/dashboard?repo=nope`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()) as any).toMatchObject({ error: 'scope_not_found', available: ['uipy', 'uiweb'] });
    // Server-side filters (what a viewer of a large graph asks for) and communities.
    const filtered = await get('/v1/graph?kind=function,method&language=typescript&path=src/&communities=1');
    expectShape(schemas.routes['/v1/graph']!, filtered, '/v1/graph filtered');
    expect(filtered.nodes.length).toBeGreaterThan(3);
    expect(filtered.nodes.every((n: any) => ['function', 'method'].includes(n.kind) && n.language === 'typescript' && n.file_path.startsWith('src/') && n.repo_prefix === 'uiweb')).toBe(true);
    const coloured = filtered.nodes.filter((n: any) => n.community !== undefined);
    expect(coloured.length).toBeGreaterThan(0);
    const labels = filtered.stats.per_repo.find((r: any) => r.repo === 'uiweb').community_labels;
    expect(coloured.every((n: any) => typeof labels[String(n.community)] === 'string')).toBe(true);
    expect(filtered.stats.per_repo.find((r: any) => r.repo === 'uipy')).toMatchObject({ matched: 0, nodes: 0 });
    const misspelt = await fetch(`${url}/v1/graph?kind=functoin`);
    expect(misspelt.status).toBe(400);
    expect(((await misspelt.json()) as any).message).toMatch(/unknown node kind "functoin"; kinds: file, /);
    const bad = await fetch(`${url}/v1/graph?max_nodes=lots`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).message).toMatch(/\?max_nodes= must be one integer from 1 to/);
  });

  test('the tool calls of the UI answer the MCP envelope across both repositories, ids routed to their owner', async () => {
    // search spans every tracked repository when none is named.
    const found = await tool('search_symbols', { query: 'checkout', limit: 12, format: 'json' });
    expect(found.results[0]).toMatchObject({ name: 'checkout', path: 'shop/service.py', repo: 'uipy' });
    const both = await tool('search_symbols', { query: 'run', limit: 50 });
    expect(new Set(both.results.map((r: any) => r.repo))).toEqual(new Set(['uipy', 'uiweb']));

    const id = found.results[0].id as string;
    expect(id.startsWith('uipy/')).toBe(true);
    const symbol = await tool('get_symbol', { id, detail: 'full' });
    expect(symbol.node).toMatchObject({ id, repo_prefix: 'uipy', file_path: 'shop/service.py', start_line: 5, meta: { signature: expect.stringContaining('def checkout') } });
    const source = await tool('get_symbol_source', { id, context_lines: 20 });
    expect(source).toMatchObject({ from_line: 1, start_line: 5, end_line: 6 });
    expect(source.source).toContain('def checkout(store: Store, item: str) -> None:');
    const usages = await tool('find_usages', { id });
    expect(usages.nodes.map((n: any) => n.id)).toContain('uipy/shop/service.py::run');
    const deps = await tool('get_dependencies', { id });
    expect(deps.nodes.map((n: any) => n.qual_name)).toContain('Store.save');

    const processes = (await get('/v1/processes')).processes;
    const flow = processes.find((p: any) => p.repo_prefix === 'uiweb' && p.category === 'product');
    expect(flow).toBeDefined();
    const detail = await tool('get_processes', { id: flow.id });
    expect(detail.entry_point).toBe(flow.id);
    expect(detail.steps[0]).toMatchObject({ id: flow.id, depth: 0 });
    expect(detail.step_count).toBe(flow.steps);

    // Failures are envelopes too, with the status of their code.
    const missing = await fetch(`${url}/v1/tools/no_such_tool`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect((await missing.json()) as any).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^tool_not_found: /) }], available_tools: expect.arrayContaining(['search_symbols']) });
    const invalid = await fetch(`${url}/v1/tools/get_symbol`, { method: 'POST', body: JSON.stringify({ arguments: { id: 'uipy/shop/service.py::checkout', detail: 'everything' } }) });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as any).content[0].text).toMatch(/^invalid_argument: detail must be brief or full, got "everything"/);
    const tools = await get('/v1/tools');
    expect(Array.isArray(tools)).toBe(true);
    expect(tools.find((t: any) => t.name === 'get_symbol')).toMatchObject({ description: expect.any(String) });
  });

  test('a change shows in the activity feed and the dashboard', async () => {
    fs.appendFileSync(path.join(web, 'src', 'format.ts'), '\nexport function fromActivity(): string {\n  return formatLabel("a");\n}\n');
    const events = await until('an activity row', async () => {
      const rows = (await get('/v1/activity?limit=20')).events;
      return rows.length > 0 ? rows : undefined;
    }, 30_000);
    expectShape(schemas.routes['/v1/activity']!, { events }, '/v1/activity');
    expect(events[0]).toMatchObject({ file_path: 'src/format.ts', kind: 'modified', repo_prefix: 'uiweb' });
    expect(events[0].nodes_added).toBeGreaterThanOrEqual(1);
    expect(Number.isNaN(new Date(events[0].timestamp).getTime())).toBe(false);
    fs.writeFileSync(path.join(web, 'src', 'added.ts'), 'export function added(): number {\n  return 1;\n}\n');
    const created = await until('the new file in the feed', async () => {
      const rows = (await get('/v1/activity')).events;
      return rows.find((r: any) => r.file_path === 'src/added.ts');
    }, 30_000);
    expect(created.kind).toBe('created');
    expect((await get('/v1/activity?repo=uipy')).events).toEqual([]);
    expect((await get('/v1/dashboard')).activity[0].file_path).toBe('src/added.ts');
  });
});
