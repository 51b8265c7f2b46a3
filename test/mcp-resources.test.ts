/**
 * MCP resources and prompts through the SDK's own Client: the real server (`createMcpServer`, so
 * resources read tool answers through the session's call pipeline) over a real Engine on temp
 * copies of the `query/app-ts` fixture, linked in process by `InMemoryTransport`; and, for the
 * active project, `gortex mcp` over stdio against a real daemon tracking a project.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Engine } from '../ts/engine/engine';
import { RENDERS_META, type ResourceHost } from '../ts/mcp/resources';
import { createMcpServer } from '../ts/mcp/server';
import { ANALYZE_KIND_SCHEMAS, SEARCH_AST_DETECTORS } from '../ts/engine/tool-schemas';
import { SERVER_SPECS } from '../ts/lsp/specs';
import { facadeDomains } from '../ts/tools/facade';
import { ALL_TOOLS } from '../ts/tools/index';
import type { ToolContext } from '../ts/workspace/context';
import { ChangeLog, ScopeStore, scopesFile, singleRepoWorkspace } from '../ts/workspace/workspace';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';
import { daemonWorld } from './helpers/daemon';

/** A linked client/server pair over one engine, with the re-index hook exposed. */
interface Session {
  client: Client;
  engine: Engine;
  root: string;
  /** Fires every `onReindexed` listener, as the embedded watcher does after a refresh. */
  reindexed(): void;
  updates: string[];
}

/**
 * The real MCP server over a one-repository workspace on `root`. `tools` is its surface (`full`
 * lets the test call every tool; null leaves the default, the compact surface for a named client).
 */
async function open(root: string, tools: string | null = 'full'): Promise<Session> {
  const home = tempHome();
  const engine = new Engine({ home, threads: 2 });
  const report = await engine.indexRepo(root);
  expect(report.failures).toEqual([]);
  const ctx: ToolContext = { engine, repo: root, root };
  const listeners: (() => void)[] = [];
  const host: ResourceHost = {
    context: async () => ctx,
    onReindexed: (listener) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  const workspace = singleRepoWorkspace(host.context, () => ctx, { scopes: new ScopeStore(scopesFile(home)), changes: new ChangeLog() });
  const server = createMcpServer(host, { workspace, env: {}, ...(tools === null ? {} : { tools }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'gortex-test', version: '1.0.0' });
  await client.connect(clientSide);
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  return { client, engine, root, reindexed: () => listeners.forEach((l) => l()), updates };
}

/** The single text content of a resource. */
async function readText(client: Client, uri: string): Promise<{ mimeType: string | undefined; text: string }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]!.uri).toBe(uri);
  return { mimeType: contents[0]!.mimeType, text: (contents[0] as { text: string }).text };
}

async function readJson(client: Client, uri: string): Promise<any> {
  const { mimeType, text } = await readText(client, uri);
  expect(mimeType).toBe('application/json');
  return JSON.parse(text);
}

/** A tool's JSON answer in the same session (a failure fails the test). */
async function toolAnswer(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

/** A resource and the tool answer it renders, read back to back in one session. */
/**
 * A resource's body and the tool answer it renders. `token_savings` (graph_stats) moves with every
 * call the session makes, the two reads included, so it is checked on its own, not compared.
 */
async function resourceAndTool(client: Client, uri: string, tool: string, args: Record<string, unknown> = {}): Promise<[any, any]> {
  const body = await readJson(client, uri);
  const answer = await toolAnswer(client, tool, args);
  for (const v of [body, answer]) {
    if (v && typeof v === 'object' && 'token_savings' in v) {
      expect(v.token_savings.lifetime).toMatchObject({ calls: expect.any(Number), saved_tokens: expect.any(Number) });
      delete v.token_savings;
    }
  }
  return [body, answer];
}

async function promptText(s: Session, name: string, args?: Record<string, string>): Promise<string> {
  const result = await s.client.getPrompt(args ? { name, arguments: args } : { name });
  expect(result.messages).toHaveLength(1);
  expect(result.messages[0]!.role).toBe('user');
  const content = result.messages[0]!.content as { type: string; text: string };
  expect(content.type).toBe('text');
  return content.text;
}

const STATIC_URIS = [
  'session', 'stats', 'schema', 'guide', 'index-health', 'workspace', 'repos', 'active-project',
  'communities', 'processes', 'report', 'god-nodes', 'surprises', 'audit', 'questions',
].map((n) => `gortex://${n}`);

describe('MCP resources and prompts (in-process, app-ts copy)', () => {
  const root = fixtureCopy('query/app-ts', 'resapp');
  const id = (rest: string): string => `resapp/${rest}`;
  let s: Session;

  beforeAll(async () => {
    // Tagged comments for the questions rollup (the string literal must not count), and agent
    // instructions with live and stale references for the audit.
    fs.writeFileSync(
      path.join(root, 'src/notes.ts'),
      '// TODO(alice): split this\nexport function todoish(): number {\n  /* FIXME: off by one */\n' +
        "  const s = 'TODO not a comment';\n  return 1; // XXX why\n}\n",
    );
    fs.writeFileSync(
      path.join(root, 'CLAUDE.md'),
      '# Notes\nStart at `src/render.ts` and `summarize()`; settings live in `src/settings.ts`.\n' +
        'Call `Renderer.draw` or `drawAll`. Run `npm test`; `GORTEX_HOME`, `package.json`, `shapes.ts`, `gone.ts`.\n' +
        '```\n`fencedAway` `src/fenced.ts`\n```\n',
    );
    s = await open(root);
  });

  afterAll(async () => {
    await s.client.close();
  });

  test('lists the 15 static resources and 3 templates with their MIME types and the tool answers they render', async () => {
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(STATIC_URIS);
    for (const r of resources) {
      expect(r.mimeType).toBe(r.uri === 'gortex://guide' ? 'text/markdown' : 'application/json');
      expect(r.description!.length).toBeGreaterThan(20);
    }
    const renders = Object.fromEntries(resources.flatMap((r) => (r._meta?.[RENDERS_META] ? [[r.uri, (r._meta[RENDERS_META] as any).tool]] : [])));
    expect(renders).toEqual({
      'gortex://stats': 'graph_stats',
      'gortex://index-health': 'index_health',
      'gortex://workspace': 'workspace_info',
      'gortex://repos': 'list_repos',
      'gortex://active-project': 'get_active_project',
      'gortex://communities': 'get_communities',
      'gortex://processes': 'get_processes',
      'gortex://god-nodes': 'analyze',
      'gortex://questions': 'analyze',
    });
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType, (t._meta?.[RENDERS_META] as any)?.tool])).toEqual([
      ['gortex://guide/{topic}', 'text/markdown', undefined],
      ['gortex://community/{id}', 'application/json', 'get_communities'],
      ['gortex://process/{id}', 'application/json', 'get_processes'],
    ]);
  });

  test('every resource that renders a tool answer is that answer, read in the same session', async () => {
    const { resources } = await s.client.listResources();
    const rendering = resources.filter((r) => r._meta?.[RENDERS_META]);
    expect(rendering.length).toBe(9);
    for (const r of rendering) {
      const { tool, arguments: args, adds } = r._meta![RENDERS_META] as { tool: string; arguments: Record<string, unknown>; adds?: string[] };
      const [body, answer] = await resourceAndTool(s.client, r.uri, tool, args);
      for (const key of adds ?? []) {
        expect(body).toHaveProperty(key);
        delete body[key];
      }
      expect({ uri: r.uri, body }).toEqual({ uri: r.uri, body: answer });
    }
    const communities = await toolAnswer(s.client, 'get_communities', { limit: 100 });
    const processes = await toolAnswer(s.client, 'get_processes', { limit: 50 });
    const { resourceTemplates } = await s.client.listResourceTemplates();
    for (const t of resourceTemplates.filter((t) => t._meta?.[RENDERS_META])) {
      const { tool } = t._meta![RENDERS_META] as { tool: string };
      const id = tool === 'get_communities' ? communities.communities[0].id : processes.processes[0].id;
      const [body, answer] = await resourceAndTool(s.client, t.uriTemplate.replace('{id}', String(id)), tool, { id });
      expect(body).toEqual(answer);
    }
  });

  test('stats, schema, session, repos, active project, workspace and index health', async () => {
    const [stats, graphStats] = await resourceAndTool(s.client, 'gortex://stats', 'graph_stats');
    expect(stats).toEqual(graphStats);
    expect(stats).toEqual(s.engine.stats(root));
    expect(stats).toMatchObject({
      name: 'resapp',
      // 9 TypeScript files, package.json and CLAUDE.md (one `doc` section).
      files: 11,
      nodes: 55,
      edges: 133,
      unresolved: 3,
      nodes_by_kind: { constant: 2, doc: 1, field: 4, file: 11, function: 14, interface: 2, method: 14, type: 7 },
      edges_by_origin: { ast_resolved: 130, text_matched: 3 },
    });

    const schema = await readJson(s.client, 'gortex://schema');
    const nodeKinds = Object.fromEntries(schema.node_kinds.map((k: any) => [k.kind, k.count]));
    expect(nodeKinds).toEqual({
      file: 11, package: 0, module: 0, function: 14, method: 14, type: 7, interface: 2, field: 4,
      constant: 2, variable: 0, enum_member: 0, import: 0, doc: 1, stage: 0, script: 0,
    });
    const edgeKinds = Object.fromEntries(schema.edge_kinds.map((k: any) => [k.kind, k.count]));
    expect(edgeKinds).toEqual({
      defines: 44, contains: 19, member_of: 18, imports: 17, re_exports: 0, calls: 16, references: 2,
      instantiates: 4, extends: 2, implements: 3, overrides: 0, typed_as: 5, returns: 1, tests: 2, depends_on_module: 0,
    });
    expect([...schema.node_kinds, ...schema.edge_kinds].every((k: any) => typeof k.description === 'string')).toBe(true);
    expect(schema.tiers.map((t: any) => [t.origin, t.rank, t.produced, t.count])).toEqual([
      ['lsp_resolved', 6, false, 0],
      ['lsp_dispatch', 5, false, 0],
      ['ast_resolved', 4, true, 130],
      ['ast_inferred', 3, true, 0],
      ['text_matched', 2, true, 3],
      ['speculative', 1, false, 0],
    ]);
    expect(Object.keys(schema.caveats)).toEqual(['likely_unused', 'possible_extraction_gap', 'coverage_incomplete']);
    expect(schema.unresolved_references).toBe(3);

    const session = await readJson(s.client, 'gortex://session');
    const version = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(session).toMatchObject({ server: 'gortex', version, repo: 'resapp', root, reindexes: 0, last_reindex_at: null, subscriptions: [] });
    expect(Date.parse(session.started_at)).not.toBeNaN();
    // This session's calls so far, booked by tool.
    expect(session.token_savings.session.calls).toBeGreaterThan(0);
    expect(session.token_savings.session.by_tool.map((t: { tool: string }) => t.tool)).toContain('graph_stats');

    const [repos, listRepos] = await resourceAndTool(s.client, 'gortex://repos', 'list_repos');
    expect(repos).toEqual(listRepos);
    expect(repos).toEqual({
      mode: 'embedded',
      repos: [{ name: 'resapp', root, project: null, phase: 'ready', files: 11, nodes: 55, edges: 133 }],
      projects: {},
      active_project: null,
      scopes: [],
    });

    const [active, getActive] = await resourceAndTool(s.client, 'gortex://active-project', 'get_active_project');
    expect(active).toEqual(getActive);
    expect(active).toEqual({ active_project: null, repos: [] });

    const workspace = await readJson(s.client, 'gortex://workspace');
    const { git, ...info } = workspace;
    expect(info).toEqual(await toolAnswer(s.client, 'workspace_info'));
    expect(info).toMatchObject({ mode: 'embedded', root, repo: 'resapp', projects: [], active_project: null });
    expect(git).toMatchObject({ is_repo: false });

    // One verdict, one denominator: the resource is the index_health answer.
    const [health, indexHealth] = await resourceAndTool(s.client, 'gortex://index-health', 'index_health');
    expect(health).toEqual(indexHealth);
    expect(health).toMatchObject({
      status: 'healthy',
      verdict: 'healthy: 11 files indexed (json 1, markdown 1, typescript 9); snapshot fresh; no parse failures; 95% of references resolved',
      problems: [],
      freshness: { fresh: true, modified: 0, added: 0, deleted: 0, changed: [], snapshot: expect.stringMatching(/\.snap$/) },
      failures: { total: 0, files: [] },
      skipped: { total: 0 },
      // Unresolved references over usage edges plus unresolved ones (structural edges are not uses).
      references: { usage_edges: 52, unresolved: 3, unresolved_share: 0.0545 },
    });
  });

  test('index health reports files that changed on disk since the snapshot, as index_health does', async () => {
    const file = path.join(root, 'src/empty.ts');
    const before = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, `${before}// touched\n`);
    try {
      const [health, indexHealth] = await resourceAndTool(s.client, 'gortex://index-health', 'index_health');
      expect(health).toEqual(indexHealth);
      expect(health.status).toBe('degraded');
      expect(health.problems).toEqual(['1 file changed since the snapshot']);
      expect(health.freshness).toMatchObject({ fresh: false, modified: 1, added: 0, deleted: 0, changed: ['M src/empty.ts'] });
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  test('the guide is markdown, served whole and by topic, and names only real tools', async () => {
    const whole = await readText(s.client, 'gortex://guide');
    expect(whole.mimeType).toBe('text/markdown');
    const topics = ['search', 'navigation', 'tiers-and-caveats', 'workflow', 'capabilities', 'analyze', 'search_ast', 'tokens', 'resources', 'providers'];
    for (const topic of topics) {
      const section = await readText(s.client, `gortex://guide/${topic}`);
      expect(section.mimeType).toBe('text/markdown');
      expect(section.text.startsWith('## ')).toBe(true);
      expect(whole.text).toContain(section.text.trim());
      expect(whole.text).toContain(`gortex://guide/${topic}`);
    }
    expect((await readText(s.client, 'gortex://guide/search')).text.split('\n')[0]).toBe('## Finding code');
    const tools = new Set(ALL_TOOLS.map((t) => t.name));
    const mentioned = [...whole.text.matchAll(/`((?:get|find|search|winnow|walk|graph|trace|read)_[a-z_]+)`/g)].map((m) => m[1]!);
    expect(mentioned.length).toBeGreaterThan(20);
    expect(mentioned.filter((name) => !tools.has(name))).toEqual([]);
  });

  test('the guide\'s catalogues list what this build runs: domains, analyze kinds, detectors, resources, servers', async () => {
    const section = async (topic: string) => (await readText(s.client, `gortex://guide/${topic}`)).text;
    const capabilities = await section('capabilities');
    for (const d of facadeDomains().filter((d) => Object.keys(d.operations).length > 0)) expect(capabilities).toContain(`| \`${d.name}\` | ${d.effect} |`);
    const analyze = await section('analyze');
    for (const k of ANALYZE_KIND_SCHEMAS.filter((k) => k.kind !== 'kinds' && !k.alias_of)) expect(analyze).toContain(`- \`${k.kind}\` — ${k.description}`);
    expect(analyze).toContain('`untested` (= `coverage_gaps`)');
    const ast = await section('search_ast');
    expect(SEARCH_AST_DETECTORS.map((d) => d.id)).toEqual(expect.arrayContaining(['sql-string-concat', 'empty-catch', 'eval-injection']));
    for (const d of SEARCH_AST_DETECTORS) expect(ast).toContain(`| \`${d.id}\` |`);
    expect(ast).toContain('| `empty-catch` | alias of `swallowed-error`:');
    // Every resource and template the server lists is named in the resources topic.
    const resources = await section('resources');
    const listed = (await s.client.listResources()).resources.map((r) => r.uri);
    const templates = (await s.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    for (const uri of [...listed, ...templates]) expect(resources).toContain(`\`${uri}\``);
    const providers = await section('providers');
    for (const spec of Object.values(SERVER_SPECS)) expect(providers).toContain(`| ${spec.name} | \`${spec.command[0]}\` |`);
    expect(providers).toContain('GORTEX_LLM_ENDPOINT');
  });

  test('god nodes: the analyze kind=hotspots answer, highest score first, whatever the threshold', async () => {
    const god = await readJson(s.client, 'gortex://god-nodes');
    expect(god.threshold).toBe(0);
    expect(god.hotspots.slice(0, 2).map((h: any) => [h.node.id, h.score])).toEqual([
      [id('src/render.ts::Renderer.draw'), 100],
      [id('src/render.ts::summarize'), expect.any(Number)],
    ]);
    const scores = god.hotspots.map((h: any) => h.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(god.hotspots.every((h: any) => ['function', 'method'].includes(h.node.kind))).toBe(true);
    expect(god.hotspots.length).toBeLessThanOrEqual(20);
    expect(god.candidates).toBeGreaterThanOrEqual(god.hotspots.length);
  });

  test('questions: the analyze kind=todos answer, by tag and assignee, string literals left out', async () => {
    const q = await readJson(s.client, 'gortex://questions');
    expect(q).toMatchObject({ total: 3, truncated: false, by_tag: { TODO: 1, FIXME: 1, XXX: 1 }, by_assignee: { alice: 1, unassigned: 2 } });
    expect(q.todos.map((t: any) => [t.tag, t.assignee, t.path, t.line, t.text, t.symbol?.id])).toEqual([
      ['TODO', 'alice', 'src/notes.ts', 1, 'split this', id('src/notes.ts')],
      ['FIXME', undefined, 'src/notes.ts', 3, 'off by one', id('src/notes.ts::todoish')],
      ['XXX', undefined, 'src/notes.ts', 5, 'why', id('src/notes.ts::todoish')],
    ]);
  });

  test('report: size, languages, health, hotspots, communities, flows, dead code, cycles, TODO counts', async () => {
    const r = await readJson(s.client, 'gortex://report');
    expect(r.repo).toBe('resapp');
    expect(r.size).toEqual({ files: 11, nodes: 55, edges: 133, unresolved: 3 });
    expect(r.languages).toEqual([
      { language: 'typescript', files: 9, bytes: expect.any(Number) },
      { language: 'json', files: 1, bytes: expect.any(Number) },
      { language: 'markdown', files: 1, bytes: expect.any(Number) },
    ]);
    expect(r.node_kinds[0]).toEqual({ kind: 'function', count: 14 });
    expect(r.edge_kinds[0]).toEqual({ kind: 'defines', count: 44 });
    expect(r.hotspots.top.map((n: any) => n.id).slice(0, 2)).toEqual([id('src/render.ts::Renderer.draw'), id('src/render.ts::summarize')]);
    expect(r.health.grade).toMatch(/^[A-F]$/);
    expect(Object.keys(r.health.components)).toEqual(['test_reach', 'dead_code', 'cycles', 'structure', 'resolution']);
    expect(r.communities.count).toBeGreaterThanOrEqual(2);
    expect(r.processes.top[0]).toMatchObject({ name: 'main', path: 'src/render.ts' });
    // Everything unused here is exported API: no dead-code alarm.
    expect(r.dead_code.total).toBe(0);
    expect(r.cycles).toMatchObject({ total: 0 });
    expect(r.todos).toMatchObject({ total: 3, by_tag: { TODO: 1, FIXME: 1, XXX: 1 } });
    expect(r.missing).toBeUndefined();
  });

  test('audit: dead paths and unknown symbols in agent instructions, fenced blocks skipped', async () => {
    const a = await readJson(s.client, 'gortex://audit');
    expect(a.files).toHaveLength(1);
    expect(a.files[0]).toMatchObject({
      path: 'CLAUDE.md',
      large: false,
      paths_checked: 5,
      symbols_checked: 3,
      dead_paths: [
        { ref: 'src/settings.ts', line: 2 },
        { ref: 'gone.ts', line: 3 },
      ],
      unknown_symbols: [{ ref: 'drawAll', line: 3 }],
    });
    expect(a.summary).toEqual({ files: 1, dead_paths: 2, unknown_symbols: 1, large_files: 0 });
  });

  test('communities, processes and surprises answer from the engine; unknown ids are refused', async () => {
    const communities = await readJson(s.client, 'gortex://communities');
    expect(communities.algorithm).toBe('leiden');
    expect(communities.communities.length).toBeGreaterThanOrEqual(2);
    const first = communities.communities[0];
    const community = await readJson(s.client, `gortex://community/${first.id}`);
    expect(community.community).toMatchObject({ id: first.id, label: first.label, size: first.size });
    const byLabel = await readJson(s.client, `gortex://community/${encodeURIComponent(first.label)}`);
    expect(byLabel.community.id).toBe(first.id);
    const processes = await readJson(s.client, 'gortex://processes');
    expect(processes.processes[0]).toMatchObject({ name: 'main' });
    const trace = await readJson(s.client, `gortex://process/${processes.processes[0].id}`);
    expect(trace.steps[0].id).toBe(id('src/render.ts::main'));
    const surprises = await readJson(s.client, 'gortex://surprises');
    expect(surprises.cycles).toMatchObject({ total: 0, cycles: [] });
    expect(surprises.dead_code).toMatchObject({ total: 0, dead: [] });
    expect(Array.isArray(surprises.cross_community_hubs.hubs)).toBe(true);
    // An id the tool does not know is "resource not found", with the tool's own message.
    await expect(s.client.readResource({ uri: 'gortex://community/999' })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/999/) });
    await expect(s.client.readResource({ uri: 'gortex://process/checkout%20flow' })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/checkout flow/) });
  });

  test('unknown URIs are "resource not found" errors naming what exists', async () => {
    const cases: [string, RegExp][] = [
      ['gortex://nope', /Resource not found: gortex:\/\/nope \(resources: gortex:\/\/session, /],
      ['https://example.com/stats', /gortex serves only gortex:\/\/ URIs/],
      ['gortex://guide/nope', /unknown guide topic "nope"; topics: search, navigation, tiers-and-caveats, workflow, capabilities, analyze, search_ast, tokens, resources, providers/],
      ['gortex://community/', /takes exactly one non-empty segment/],
      ['gortex://stats/extra', /templates: gortex:\/\/guide\/\{…\}/],
      ['gortex://toString', /Resource not found/],
    ];
    for (const [uri, message] of cases) {
      const error = await s.client.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e as { code: number; message: string },
      );
      expect(error).toBeDefined();
      expect(error!.code).toBe(-32002);
      expect(error!.message).toMatch(message);
    }
  });

  test('prompts are listed with their arguments', async () => {
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments])).toEqual([
      ['orientation', []],
      ['safe_to_change', [{ name: 'ids', description: 'Symbol ids or names, comma-separated (at most 20)', required: true }]],
      ['pre_commit', [{ name: 'scope', description: 'Only changed files under this repository-relative path prefix', required: false }]],
    ]);
  });

  test('orientation briefs from real data', async () => {
    const text = await promptText(s, 'orientation');
    expect(text.split('\n')[0]).toBe('# Orientation: resapp');
    expect(text).toContain('- Size: 11 files, 55 nodes, 133 edges, 3 unresolved references\n');
    expect(text).toContain('- Symbols: function 14 · method 14 · type 7 · field 4 · constant 2 · interface 2 · doc 1\n');
    expect(text).toContain('## Layout\n- `src/` — 9 files\n');
    expect(text).toMatch(new RegExp(`\\n1\\. \`${id('src/render.ts::Renderer.draw')}\` \\(method, src/render\\.ts:\\d+\\) — score 100, fan-in 1, fan-out 2\\n`));
    expect(text).toMatch(/## Communities \(\d+ clusters of code that calls each other; modularity 0\.\d+\)\n- #0 `src · /);
    expect(text).toContain(`## Execution flows (scored entry points and their call trees)\n- #0 \`${id('src/render.ts::main')}\` (src/render.ts:24)`);
    expect(text).toContain('3 tagged comments: FIXME 1 · TODO 1 · XXX 1');
    expect(text).not.toContain('Not available yet');
  });

  test('safe_to_change: blast radius, tests and risk per id; unresolved ids explained', async () => {
    const text = await promptText(s, 'safe_to_change', { ids: 'summarize, Square.name,Shape, nope, area, summarize' });
    expect(text.split('\n')[0]).toBe('# Is it safe to change `summarize`, `Square.name`, `Shape`, `nope`, `area`?');
    expect(text).toContain('**Overall risk: medium** (2 ids not resolved)');

    const section = (heading: string): string => {
      const start = text.indexOf(`### \`${heading}\``);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = text.indexOf('\n### ', start + 1);
      return text.slice(start, end < 0 ? text.indexOf('\n## ', start) : end);
    };
    expect(section(id('src/render.ts::summarize'))).toBe(
      [
        `### \`${id('src/render.ts::summarize')}\` — function at src/render.ts:15–18`,
        '`function summarize(s: Shape): string` · exported',
        '',
        '**Risk: low**',
        '- [low] small blast radius: 4 dependents within 2 levels (3 direct)',
        '- [low] exported: users outside this repository are invisible to the graph',
        '',
        '**Dependents** (4; depth 1: 3, depth 2: 1; 2 direct callers):',
        `- depth 1: \`${id('src/render.test.ts')}\` (file, src/render.test.ts:1) — imports [ast_resolved] · test`,
        `- depth 1: \`${id('src/render.test.ts::render.summarizes')}\` (function, src/render.test.ts:6) — calls [ast_resolved] · test`,
        `- depth 1: \`${id('src/render.ts::Renderer.draw')}\` (method, src/render.ts:11) — calls [ast_resolved]`,
        `- depth 2: \`${id('src/render.ts::main')}\` (function, src/render.ts:26) — calls [ast_resolved] via \`${id('src/render.ts::Renderer.draw')}\``,
        '',
        '**Tests** (2):',
        `- \`${id('src/render.test.ts')}\` (src/render.test.ts:1) — depends on it (imports)`,
        `- \`${id('src/render.test.ts::render.summarizes')}\` (src/render.test.ts:5) — calls it directly (tests edge)`,
        '',
      ].join('\n'),
    );
    const square = section(id('src/shapes.ts::Square.name'));
    expect(square).toContain('**Risk: medium**');
    expect(square).toContain('- [medium] coverage_incomplete: ');
    expect(square).toContain(`- [medium] overrides \`${id('src/shapes.ts::Shape.name')}\``);
    expect(square).toContain('- [medium] overridden by 1 method');
    expect(square).toContain('- [medium] no test reaches it');
    const shape = section(id('src/shapes.ts::Shape'));
    expect(shape).toContain('- [medium] blast radius: 11 dependents within 2 levels (6 direct)');
    expect(shape).toContain('- [medium] 3 types implement it: changing a member changes all of them');
    expect(section('nope')).toContain('not_found: no node matches "nope"');
    expect(section('area')).toContain(`ambiguous: "area" matches 3 symbols; pass one of these ids: ${id('src/shapes.ts::Circle.area')}`);
    expect(text).toContain('## Tests to run\n- src/render.test.ts\n');
  });

  test('safe_to_change on a file walks its importers; a value read only through an import carries its caveat', async () => {
    const text = await promptText(s, 'safe_to_change', { ids: 'src/format.ts,VERSION' });
    expect(text).toContain(
      [
        `### \`${id('src/format.ts')}\` — file at src/format.ts:1–19`,
        '',
        '**Risk: low**',
        '- [low] small blast radius: 3 dependents within 2 levels (2 direct)',
        '- [low] 1 name-only row hidden because stronger evidence exists (get_dependents with min_tier "text_matched" shows them)',
        '',
        '**Dependents** (3; depth 1: 2, depth 2: 1):',
        `- depth 1: \`${id('src/cli.ts')}\` (file, src/cli.ts:1) — imports, calls [ast_resolved]`,
      ].join('\n'),
    );
    expect(text).toContain(`- \`${id('src/render.test.ts')}\` (src/render.test.ts:1) — depends on it (imports, calls)`);
    expect(text).toContain('- [medium] coverage_incomplete: no resolved usage found, but 1 import of the symbol');
    expect(text).toContain('**Dependents** (1; depth 1: 1; 0 direct callers):');
  });

  test('bad prompt requests are invalid-params errors', async () => {
    const cases: [string, Record<string, string> | undefined, RegExp][] = [
      ['safe_to_change', undefined, /safe_to_change: ids is required/],
      ['safe_to_change', { ids: '  ' }, /safe_to_change: ids is required/],
      ['safe_to_change', { ids: ' , ,' }, /ids: give at least one symbol id or name/],
      ['safe_to_change', { ids: Array.from({ length: 21 }, (_, i) => `s${i}`).join(',') }, /at most 20 ids per prompt, got 21/],
      ['safe_to_change', { ids: 'summarize', depth: '3' }, /unknown argument depth; accepted: ids/],
      ['orientation', { verbose: 'yes' }, /orientation: unknown argument verbose; it takes no arguments/],
      ['pre_commit', { scope: '../outside' }, /scope: "..\/outside" must be a repository-relative path prefix/],
      ['pre_commit', { scope: '/etc' }, /must be a repository-relative path prefix/],
      ['pre_comit', undefined, /unknown prompt "pre_comit"; prompts: orientation, safe_to_change, pre_commit/],
    ];
    for (const [name, args, message] of cases) {
      const error = await s.client.getPrompt(args ? { name, arguments: args } : { name }).then(
        () => undefined,
        (e: unknown) => e as { code: number; message: string },
      );
      expect(error).toBeDefined();
      expect(error!.code).toBe(-32602);
      expect(error!.message).toMatch(message);
    }
  });

  test('pre_commit outside git says so', async () => {
    const text = await promptText(s, 'pre_commit');
    expect(text).toContain(`${root} is not a git repository`);
    expect(text).toContain('cannot be listed from version control');
  });

  // Last: it changes the repository.
  test('subscriptions: updated notifications after each re-index, for subscribed URIs only', async () => {
    await s.client.subscribeResource({ uri: 'gortex://stats' });
    await s.client.subscribeResource({ uri: 'gortex://guide/search' });
    await expect(s.client.subscribeResource({ uri: 'gortex://nope' })).rejects.toMatchObject({ code: -32002 });
    await expect(s.client.subscribeResource({ uri: 'gortex://guide/nope' })).rejects.toMatchObject({ code: -32002 });
    expect((await readJson(s.client, 'gortex://session')).subscriptions).toEqual(['gortex://guide/search', 'gortex://stats']);

    fs.writeFileSync(path.join(root, 'src/fresh.ts'), 'export function freshlyWritten(): number {\n  return 42;\n}\n');
    await s.engine.indexRepo(root);
    s.reindexed();
    for (let i = 0; i < 100 && s.updates.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect([...s.updates].sort()).toEqual(['gortex://guide/search', 'gortex://stats']);
    expect((await readJson(s.client, 'gortex://stats')).files).toBe(12);
    const session = await readJson(s.client, 'gortex://session');
    expect(session.reindexes).toBe(1);
    expect(Date.parse(session.last_reindex_at)).not.toBeNaN();

    await s.client.unsubscribeResource({ uri: 'gortex://guide/search' });
    await s.client.unsubscribeResource({ uri: 'gortex://never-subscribed' });
    s.updates.length = 0;
    s.reindexed();
    for (let i = 0; i < 100 && s.updates.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await s.client.ping(); // a round trip after the notifications were sent: nothing else is in flight
    expect(s.updates).toEqual(['gortex://stats']);
  });
});

describe('pre_commit on a git repository', () => {
  const root = fixtureCopy('query/app-ts', 'gitapp');
  const id = (rest: string): string => `gitapp/${rest}`;
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=gortex test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
  let s: Session;

  beforeAll(async () => {
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
    // One changed function body, one new file, one deleted file, one non-source change.
    const render = path.join(root, 'src/render.ts');
    fs.writeFileSync(render, fs.readFileSync(render, 'utf8').replace('return s.name() + s.area();', 'return s.name() + ":" + s.area();'));
    fs.writeFileSync(path.join(root, 'src/extra.ts'), 'import { shout } from "./format";\nexport function extra(): string {\n  return shout("x");\n}\n');
    fs.rmSync(path.join(root, 'src/legacy.ts'));
    fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "app-ts", "version": "1.0.1", "private": true }\n');
    // A binary file is never read, so it is the one file outside the graph.
    fs.writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    s = await open(root);
  });

  afterAll(async () => {
    await s.client.close();
  });

  test('workspace reports the git state', async () => {
    const w = await readJson(s.client, 'gortex://workspace');
    expect(w.git).toEqual({ is_repo: true, top_level: fs.realpathSync(root), branch: 'main', head: git('rev-parse', 'HEAD').trim() });
  });

  test('changed files, the symbols the diff touches, their dependents and the tests to run', async () => {
    const text = await promptText(s, 'pre_commit');
    expect(text).toContain('5 changed files (git diff against HEAD plus untracked files).');
    expect(text).toContain('**Overall risk: medium**');
    expect(text).toContain(
      [
        '### `src/extra.ts` — untracked',
        'Imported by no other file.',
        'New symbols (1):',
        `- \`${id('src/extra.ts::extra')}\` (function, line 2) — risk medium; 0 direct dependents; 0 tests; caveat likely_unused`,
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '### `src/render.ts` — modified',
        'Imported by 1 file: `src/render.test.ts`',
        'Changed symbols (1):',
        `- \`${id('src/render.ts::summarize')}\` (function, line 15) — risk low; 3 direct dependents: \`src/render.test.ts\`, \`render.summarizes\`, \`Renderer.draw\`; 2 tests`,
      ].join('\n'),
    );
    expect(text).toContain('### `src/legacy.ts` — deleted\nIts symbols are gone from the graph.');
    // Every text file is in the graph; a manifest edit outside its dependencies touches no symbol.
    expect(text).toContain('### `package.json` — modified');
    expect(text).toContain('Not in the graph (not a source file gortex parses, or skipped): `logo.png`');
    expect(text).toContain('## Tests to run\n- src/render.test.ts\n');
  });

  test('scope narrows the review; a scope without changes says so', async () => {
    const scoped = await promptText(s, 'pre_commit', { scope: './src/render.ts' });
    expect(scoped.split('\n')[0]).toBe('# Pre-commit review of `src/render.ts`');
    expect(scoped).toContain('1 changed file (git diff against HEAD plus untracked files).');
    expect(scoped).not.toContain('src/extra.ts` — untracked');
    const empty = await promptText(s, 'pre_commit', { scope: 'lib/' });
    expect(empty).toContain('No uncommitted changes under `lib` (5 changed files elsewhere).');
  });

  test('a clean work tree has nothing to review', async () => {
    git('add', '-A');
    git('commit', '-q', '-m', 'second');
    const text = await promptText(s, 'pre_commit');
    expect(text).toContain('No uncommitted changes: the work tree matches HEAD and there are no untracked files.');
  });
});


describe('resources on the compact tool surface', () => {
  const root = fixtureCopy('query/app-ts', 'compactapp');
  let s: Session;

  beforeAll(async () => {
    s = await open(root, null);
  });

  afterAll(async () => {
    await s.client.close();
  });

  test('a resource reads the tool it renders where the surface hides that tool, and is not recorded as an agent response', async () => {
    // A client that names itself gets the compact facade in hide mode: index_health is not callable.
    const refused = (await s.client.callTool({ name: 'index_health', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^not_available: index_health is not on this session's "facade-v1" tool surface/);
    const health = await readJson(s.client, 'gortex://index-health');
    expect(health).toMatchObject({ repo: 'compactapp', status: 'healthy', problems: [] });
    const communities = await readText(s.client, 'gortex://communities');
    // Large enough that a tool call's answer would be kept in the session's response ring.
    expect(communities.text.length).toBeGreaterThan(2048);
    const ring = await toolAnswer(s.client, 'response', { operation: 'stats' });
    expect(ring).toMatchObject({ count: 0, responses: [] });
  });
});

describe('gortex mcp over stdio through a daemon: the active project', () => {
  const { env } = daemonWorld();
  const app = fixtureCopy('query/app-ts', 'projapp');
  const shop = fixtureCopy('query/app-py', 'projshop');
  let client: Client;

  beforeAll(async () => {
    expect(runCli(['daemon', 'start', '--detach'], { env, cwd: app }).status).toBe(0);
    const tracked = runCli(['track', shop, '--name', 'shoppy', '--project', 'shop'], { env });
    expect(tracked.status).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', app, '--tools', 'full'],
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'gortex-resources-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    runCli(['daemon', 'stop'], { env });
  });

  test('active-project, repos and index-health stay the tool answers before, after and after clearing set_active_project', async () => {
    const same = async (uri: string, tool: string, args: Record<string, unknown> = {}): Promise<any> => {
      const [body, answer] = await resourceAndTool(client, uri, tool, args);
      expect({ uri, body }).toEqual({ uri, body: answer });
      return body;
    };
    expect(await same('gortex://active-project', 'get_active_project')).toEqual({ active_project: null, repos: [] });
    expect((await same('gortex://repos', 'list_repos')).projects).toEqual({ shop: ['shoppy'] });
    expect(await same('gortex://index-health', 'index_health')).toMatchObject({ repo: 'projapp', status: 'healthy' });

    expect(await toolAnswer(client, 'set_active_project', { project: 'shop' })).toEqual({ active_project: 'shop', repos: ['shoppy'] });
    expect(await same('gortex://active-project', 'get_active_project')).toEqual({ active_project: 'shop', repos: ['shoppy'] });
    expect((await same('gortex://repos', 'list_repos')).active_project).toBe('shop');
    const { git: _git, ...workspace } = await readJson(client, 'gortex://workspace');
    expect(workspace).toEqual(await toolAnswer(client, 'workspace_info'));
    expect(workspace.active_project).toBe('shop');
    // index_health is about the session's repository: the same answer under any active project.
    expect(await same('gortex://index-health', 'index_health')).toMatchObject({ repo: 'projapp', status: 'healthy' });
    // Analyses are narrowed to the active project, for the resource exactly as for the tool.
    const processes = await same('gortex://processes', 'get_processes', { limit: 50 });
    expect(processes).toEqual(await toolAnswer(client, 'get_processes', { limit: 50, repo: 'shoppy' }));
    expect(processes).not.toEqual(await toolAnswer(client, 'get_processes', { limit: 50, repo: 'projapp' }));

    expect(await toolAnswer(client, 'set_active_project', { project: '' })).toEqual({ active_project: null });
    expect(await same('gortex://active-project', 'get_active_project')).toEqual({ active_project: null, repos: [] });
  });
});
