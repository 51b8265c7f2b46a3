/**
 * `Engine.query` through its typed surface: every one of the 20 query tools on a copy of the
 * `query/app-ts` fixture (the shapes/render/config app the Rust `query_*` tests describe), with
 * typed arguments and exact values read from typed results, plus the `QueryError` codes.
 */
import {
  Engine,
  QueryError,
  type NodeSummary,
  type QueryToolMap,
  type QueryToolName,
  type UsageRow,
} from '../ts/engine/engine';
import { fixtureCopy, tempHome } from './helpers/repo';

/** The copy is named `typed-app`, so every id starts with `typed-app/` (the Rust tests index as `app-ts`). */
const REPO = 'typed-app';
const id = (rest: string): string => `${REPO}/${rest}`;
const ids = (rows: readonly { id: string }[]): string[] => rows.map((r) => r.id);
const nodeIds = (rows: readonly { node: NodeSummary }[]): string[] => rows.map((r) => r.node.id);

/** Every tool once; `satisfies` fails to compile when `QueryToolMap` gains or loses a tool. */
const TOOLS = {
  search_symbols: true,
  winnow_symbols: true,
  search_text: true,
  find_files: true,
  search_ast: true,
  find_declaration: true,
  get_symbol: true,
  get_file_summary: true,
  get_dependencies: true,
  get_dependents: true,
  get_callers: true,
  get_call_chain: true,
  find_usages: true,
  find_implementations: true,
  find_overrides: true,
  get_class_hierarchy: true,
  get_cluster: true,
  walk_graph: true,
  graph_query: true,
  trace_path: true,
  find_import_path: true,
  get_communities: true,
  get_processes: true,
  explain_change_impact: true,
  flow_between: true,
  taint_paths: true,
  find_clones: true,
  find_co_changing_symbols: true,
  pr_risk: true,
  suggest_reviewers: true,
  analyze: true,
} satisfies Record<QueryToolName, true>;

describe('Engine.query (typed)', () => {
  let root: string;
  let engine: Engine;

  /** Only the typed overload: a wrong argument shape here is a compile error, not `unknown`. */
  function run<K extends QueryToolName>(tool: K, args: QueryToolMap[K]['args']): QueryToolMap[K]['result'] {
    return engine.query(tool, args, { repo: root });
  }

  /** The QueryError `fn` throws. */
  function queryError(fn: () => unknown): QueryError {
    try {
      fn();
    } catch (error) {
      if (error instanceof QueryError) return error;
      throw error;
    }
    throw new Error('expected a QueryError');
  }

  beforeAll(async () => {
    root = fixtureCopy('query/app-ts', REPO);
    engine = new Engine({ home: tempHome(), threads: 2 });
    const report = await engine.indexRepo(root);
    expect(report.repo).toBe(REPO);
    expect(report.failures).toEqual([]);
  });

  test('queryTools lists exactly the tools of QueryToolMap, in the dispatcher order', () => {
    expect(engine.queryTools().map((t) => t.name)).toEqual(Object.keys(TOOLS));
    expect(engine.queryTools().every((t) => t.description.length > 0)).toBe(true);
  });

  test('search_symbols: the exact name first, then the test that mentions it', () => {
    const r = run('search_symbols', { query: 'summarize', limit: 5 });
    expect(ids(r.results)).toEqual([id('src/render.ts::summarize'), id('src/render.test.ts::render.summarizes')]);
    const [top, test] = r.results;
    expect(top).toMatchObject({ kind: 'function', tier: 'exact', score: 100, line: 15, exported: true });
    expect(top!.signals.bm25).toBe(1);
    expect(top!.matched).toEqual(['summarize']);
    expect(test).toMatchObject({ tier: 'ranked', is_test: true, qualified: 'render.summarizes' });
    expect(test!.signals.test).toBe(-1);
    expect(r.total).toBe(2);
    expect(r.truncated).toBe(false);
    expect(r.exact).toBe(true);
    expect('decomposed' in r).toBe(false);

    // An inline kind clause; a case-insensitive exact name.
    const shape = run('search_symbols', { query: 'kind:interface shape' });
    expect(ids(shape.results)).toEqual([id('src/shapes.ts::Shape'), id('src/shapes.ts::Solid')]);
    expect(shape.results[0]!.tier).toBe('exact_case_insensitive');
  });

  test('winnow_symbols: constraints narrow, fan-in ranks, axes add up', () => {
    const r = run('winnow_symbols', { kind: 'method', path_prefix: 'src/shapes.ts', min_fan_in: 1 });
    expect(ids(r.results)).toEqual([
      id('src/shapes.ts::Shape.name'),
      id('src/shapes.ts::Shape.area'),
      id('src/shapes.ts::Square.area'),
    ]);
    expect(r.results.map((h) => [h.fan_in, h.fan_out])).toEqual([
      [2, 0],
      [1, 0],
      [1, 0],
    ]);
    for (const hit of r.results) expect(hit.axes).toEqual({ fan_in: hit.score });
    expect(r.total).toBe(3);
    expect(r.truncated).toBe(false);

    const functions = run('winnow_symbols', { kind: 'function', include_tests: false, limit: 1 });
    expect(ids(functions.results)).toEqual([id('src/render.ts::summarize')]);
    expect(functions.results[0]).toMatchObject({ fan_in: 3, fan_out: 4 });
    expect(functions.truncated).toBe(true);

    // A community by label keeps its members only; the repository is not in git, so churn is unavailable.
    const community = (run('get_communities', {}) as any).communities[0];
    const members = run('winnow_symbols', { community: community.label, limit: 1000 });
    expect(members.total).toBeGreaterThan(0);
    expect(members.total).toBeLessThanOrEqual(community.size);
    expect(() => run('winnow_symbols', { min_churn: 1 })).toThrow(/git/);
  });

  test('search_text: one hit per line, with position and enclosing symbol', () => {
    const r = run('search_text', { query: 'summarize(' });
    expect(r.hits.map((h) => `${h.path}:${h.line}:${h.column} ${h.symbol_name}`)).toEqual([
      'src/render.test.ts:6:5 summarizes',
      'src/render.ts:11:24 draw',
      'src/render.ts:15:17 summarize',
    ]);
    expect(r.hits[1]).toEqual({
      path: 'src/render.ts',
      line: 11,
      column: 24,
      text: '    return formatLabel(summarize(shape));',
      symbol_id: id('src/render.ts::Renderer.draw'),
      symbol_name: 'draw',
    });
    expect(r).toMatchObject({ total_hits: 3, truncated: false, files_matched: 2, candidate_files: 2, docs: 9 }); // 8 sources and package.json
    expect('unreadable_files' in r).toBe(false);

    const folded = run('search_text', { query: 'SUMMARIZE(', case_sensitive: false, path: 'src/render.ts' });
    expect(folded.hits.map((h) => h.line)).toEqual([11, 15]);
    const regex = run('search_text', { query: '\\bs\\.(name|area)\\(', regexp: true });
    expect(regex.hits.map((h) => `${h.path}:${h.line}`)).toEqual(['src/render.ts:16', 'src/render.ts:17']);
  });

  test('find_files: match classes and globs', () => {
    const r = run('find_files', { query: 'render' });
    expect(r.results.map((f) => [f.path, f.match, f.score, f.symbols])).toEqual([
      ['src/render.ts', 'basename_prefix', 80, 7],
      ['src/render.test.ts', 'basename_prefix', 80, 2],
    ]);
    expect(r.results[0]).toMatchObject({ id: id('src/render.ts'), language: 'typescript' });
    expect(r.total).toBe(2);

    const glob = run('find_files', { glob: '*.test.ts' });
    expect(glob.results).toEqual([
      { id: id('src/render.test.ts'), path: 'src/render.test.ts', language: 'typescript', match: 'glob', score: 10, symbols: 2 },
    ]);
  });

  test('find_declaration: use sites lead to their declaration, with tiers', () => {
    const r = run('find_declaration', { query: 'summarize(' });
    expect(r.declarations).toHaveLength(1);
    const [decl] = r.declarations;
    expect(decl!.node.id).toBe(id('src/render.ts::summarize'));
    expect(decl).toMatchObject({ origin: 'ast_resolved', resolved_uses: 2, matched_declaration: true });
    expect(decl!.uses!.map((u) => `${u.path}:${u.line} ${u.origin}`)).toEqual([
      'src/render.test.ts:6 ast_resolved',
      'src/render.ts:11 ast_resolved',
    ]);
    expect(r.use_sites).toBe(3);
    expect(r.candidate_files).toBe(2);
    expect('unresolved_uses' in r).toBe(false);

    // An untyped receiver: both `flush` methods, by name only.
    const flush = run('find_declaration', { query: '.flush(', kind: 'method' });
    expect(nodeIds(flush.declarations)).toEqual([id('src/format.ts::Pipe.flush'), id('src/format.ts::Sink.flush')]);
    expect(flush.declarations.map((d) => [d.origin, d.resolved_uses])).toEqual([
      ['text_matched', 0],
      ['text_matched', 0],
    ]);
  });

  test('get_symbol: details, parent and edge counts', () => {
    const r = run('get_symbol', { id: 'Renderer.draw' });
    expect(r).toEqual({
      node: {
        id: id('src/render.ts::Renderer.draw'),
        kind: 'method',
        name: 'draw',
        qual_name: 'Renderer.draw',
        file_path: 'src/render.ts',
        start_line: 10,
        end_line: 12,
        repo_prefix: REPO,
        language: 'typescript',
        signature: 'draw(shape: Shape): string',
      },
      visibility: 'public',
      return_type: 'string',
      parent: {
        id: id('src/render.ts::Renderer'),
        kind: 'type',
        name: 'Renderer',
        qual_name: 'Renderer',
        file_path: 'src/render.ts',
        start_line: 5,
        end_line: 13,
        repo_prefix: REPO,
        language: 'typescript',
        flavor: 'class',
        signature: 'class Renderer',
        exported: true,
      },
      edges_in: { defines: 1, contains: 1, calls: 1 },
      edges_out: { member_of: 1, calls: 2, typed_as: 1 },
    });
    expect(run('get_symbol', { id: 'Shape' }).doc).toBe('Something with an area.');
    expect(run('get_symbol', { id: 'decorate' }).unresolved_out).toBe(1);
    const test = run('get_symbol', { id: 'render.summarizes' });
    expect(test.node.is_test).toBe(true);
    expect([test.test_role, test.test_runner, test.parent?.id]).toEqual(['test', 'jest', id('src/render.test.ts::render')]);
  });

  test('get_file_summary: symbols in source order with nesting, imports and counts', () => {
    const r = run('get_file_summary', { path: 'src/render.ts' });
    expect(r.file).toMatchObject({ id: id('src/render.ts'), kind: 'file', qual_name: 'src/render.ts' });
    expect(r.symbols.map((s) => [s.symbol.qual_name, s.parent ?? null, s.depth])).toEqual([
      ['Renderer', null, 0],
      ['Renderer.config', id('src/render.ts::Renderer'), 1],
      ['Renderer.constructor', id('src/render.ts::Renderer'), 1],
      ['Renderer.draw', id('src/render.ts::Renderer'), 1],
      ['summarize', null, 0],
      ['decorate', null, 0],
      ['main', null, 0],
    ]);
    expect(r.imports[2]).toEqual({
      line: 3,
      kind: 'imports',
      module: 'src/format.ts',
      target: id('src/format.ts'),
      symbols: [id('src/format.ts::formatLabel'), id('src/format.ts::shout')],
      status: 'resolved',
      origin: 'ast_resolved',
    });
    expect(r.counts).toEqual({
      symbols: 7,
      by_kind: { function: 3, method: 2, type: 1, field: 1 },
      imports: 3,
      unresolved_imports: 0,
      imported_by: 1,
    });
    expect('truncated' in r).toBe(false);

    // A namespace import binds no symbol.
    const cli = run('get_file_summary', { path: id('src/cli.ts') });
    expect(cli.imports).toEqual([
      { line: 1, kind: 'imports', module: 'src/format.ts', target: id('src/format.ts'), status: 'resolved', origin: 'ast_resolved' },
    ]);
    const cut = run('get_file_summary', { path: 'src/shapes.ts', limit: 2 });
    expect(cut.symbols.map((s) => s.symbol.qual_name)).toEqual(['Shape', 'Shape.area']);
    expect([cut.truncated, cut.counts.symbols]).toEqual([true, 17]);
  });

  test('get_dependencies: symbol mode and file mode', () => {
    const r = run('get_dependencies', { id: 'Renderer', kinds: ['calls'], depth: 2 });
    expect(r.mode).toBe('symbol');
    expect(r.nodes.map((d) => `d${d.depth} ${d.qual_name} [${d.edge_kinds}] L${d.line}${d.via ? ` via ${d.via}` : ''}`)).toEqual([
      'd1 loadConfig [calls] L8',
      'd1 formatLabel [calls] L11',
      'd1 summarize [calls] L11',
      `d2 Shape.area [calls] L17 via ${id('src/render.ts::summarize')}`,
      `d2 Shape.name [calls] L16 via ${id('src/render.ts::summarize')}`,
    ]);
    expect(r.by_depth).toEqual({ 1: 3, 2: 2 });
    expect([r.total, r.truncated]).toEqual([5, false]);

    const file = run('get_dependencies', { id: 'src/render.ts', depth: 2 });
    expect(file.mode).toBe('file');
    expect(file.nodes.map((d) => `${d.id} [${d.edge_kinds}] ${d.origin} L${d.line}`)).toEqual([
      `${id('src/config.ts')} [imports,calls,references,typed_as] ast_resolved L2`,
      `${id('src/format.ts')} [imports,calls,references] ast_resolved L3`,
      `${id('src/shapes.ts')} [imports,calls,instantiates,typed_as] ast_resolved L1`,
    ]);
    expect(file.by_depth[1]).toBe(3);
  });

  test('get_dependents: blast radius, the tier rule and caveats', () => {
    const r = run('get_dependents', { id: 'summarize', depth: 2 });
    expect(r.mode).toBe('symbol');
    expect(r.nodes.map((d) => `d${d.depth} ${d.id} [${d.edge_kinds}]`)).toEqual([
      `d1 ${id('src/render.test.ts')} [imports]`,
      `d1 ${id('src/render.test.ts::render.summarizes')} [calls]`,
      `d1 ${id('src/render.ts::Renderer.draw')} [calls]`,
      `d2 ${id('src/render.ts::main')} [calls]`,
    ]);
    expect(r.nodes[3]!.via).toBe(id('src/render.ts::Renderer.draw'));
    expect(r.by_depth).toEqual({ 1: 3, 2: 1 });
    expect('caveat' in r).toBe(false);

    // legacy.ts reaches format.ts by name only: hidden by default, shown with min_tier.
    const format = run('get_dependents', { id: 'src/format.ts', kinds: 'imports,calls' });
    expect(ids(format.nodes)).toEqual([id('src/cli.ts'), id('src/render.ts')]);
    expect(format.name_only_suppressed).toBe(1);
    const all = run('get_dependents', { id: 'src/format.ts', min_tier: 'text_matched' });
    expect(all.nodes.map((d) => `${d.file_path} ${d.origin}`)).toEqual([
      'src/cli.ts ast_resolved',
      'src/legacy.ts text_matched',
      'src/render.ts ast_resolved',
    ]);
    expect(all.tier_filtered).toEqual({ edges_below_min_tier: 0, max_available_tier: 'ast_resolved' });

    const unused = run('get_dependents', { id: 'legacyBanner' });
    expect(unused.nodes).toEqual([]);
    expect(unused.caveat?.class).toBe('likely_unused');
  });

  test('get_callers: levels, tests, the tier rule and caveats', () => {
    const r = run('get_callers', { id: 'summarize', depth: 2 });
    expect(r.target.id).toBe(id('src/render.ts::summarize'));
    expect(r.callers.map((c) => [c.caller.id, c.kind, c.origin, c.path, c.lines, c.depth, c.callee ?? null])).toEqual([
      [id('src/render.test.ts::render.summarizes'), 'calls', 'ast_resolved', 'src/render.test.ts', [6], 1, null],
      [id('src/render.ts::Renderer.draw'), 'calls', 'ast_resolved', 'src/render.ts', [11], 1, null],
      [id('src/render.ts::main'), 'calls', 'ast_resolved', 'src/render.ts', [26], 2, id('src/render.ts::Renderer.draw')],
    ]);
    expect(r.callers[0]!.caller.is_test).toBe(true);
    expect([r.total, r.truncated]).toEqual([3, false]);
    expect(['caveat', 'tier_filtered', 'name_only_suppressed'].filter((k) => k in r)).toEqual([]);

    const noTests = run('get_callers', { id: 'summarize', depth: 2, include_tests: false });
    expect(noTests.callers.map((c) => c.caller.qual_name)).toEqual(['Renderer.draw', 'main']);

    const label = run('get_callers', { id: 'formatLabel' });
    expect(label.callers.map((c) => c.caller.qual_name)).toEqual(['cli', 'Renderer.draw']);
    expect(label.name_only_suppressed).toBe(1);

    const pad = run('get_callers', { id: 'padLabel', min_tier: 'ast_resolved' });
    expect(pad.callers).toEqual([]);
    expect(pad.tier_filtered).toEqual({ edges_below_min_tier: 1, max_available_tier: 'text_matched' });

    const shout = run('get_callers', { id: 'shout' });
    expect(shout.caveat).toEqual({
      class: 'coverage_incomplete',
      message: 'every returned row (1) is a name-only match; the real users may differ',
    });
    expect(run('get_callers', { id: 'Circle' }).callers.map((c) => c.kind)).toEqual(['instantiates', 'instantiates']);
  });

  test('get_call_chain: calls by depth, nodes and the unresolved gaps', () => {
    const r = run('get_call_chain', { id: 'main' });
    const short = (s: string): string => s.slice(`${REPO}/`.length);
    expect(r.root.id).toBe(id('src/render.ts::main'));
    expect(r.calls.map((c) => `${short(c.from)} -${c.kind}-> ${short(c.to)} d${c.depth} L${c.line}`)).toEqual([
      'src/render.ts::main -instantiates-> src/render.ts::Renderer d1 L25',
      'src/render.ts::main -calls-> src/render.ts::Renderer.draw d1 L26',
      'src/render.ts::main -instantiates-> src/shapes.ts::Circle d1 L26',
      'src/render.ts::main -calls-> src/config.ts::applyConfig d1 L27',
      'src/render.ts::main -calls-> src/render.ts::decorate d1 L28',
      'src/render.ts::Renderer.draw -calls-> src/format.ts::formatLabel d2 L11',
      'src/render.ts::Renderer.draw -calls-> src/render.ts::summarize d2 L11',
      'src/render.ts::summarize -calls-> src/shapes.ts::Shape.name d3 L16',
      'src/render.ts::summarize -calls-> src/shapes.ts::Shape.area d3 L17',
    ]);
    expect(r.nodes.map((n) => `${n.node.qual_name} d${n.depth}`)).toEqual([
      'main d0',
      'applyConfig d1',
      'Renderer d1',
      'Renderer.draw d1',
      'decorate d1',
      'Circle d1',
      'formatLabel d2',
      'summarize d2',
      'Shape.area d3',
      'Shape.name d3',
    ]);
    expect(r.unresolved).toEqual([
      { from: id('src/render.ts::decorate'), target: 'unresolved::fn', line: 21, candidates: 0 },
      { from: id('src/render.ts::summarize'), target: 'unresolved::*.log', line: 16, candidates: 0 },
    ]);
    expect([r.total, r.unresolved_total, r.truncated]).toEqual([9, 2, false]);

    const shallow = run('get_call_chain', { id: 'main', depth: 1 });
    expect(shallow.total).toBe(5);
    expect(['unresolved', 'unresolved_total'].filter((k) => k in shallow)).toEqual([]);

    const legacy = run('get_call_chain', { id: 'legacyBanner', min_tier: 'ast_inferred' });
    expect(legacy.calls).toEqual([]);
    expect(legacy.tier_filtered).toEqual({ edges_below_min_tier: 3, max_available_tier: 'text_matched' });
    expect(legacy.unresolved).toEqual([
      { from: id('src/legacy.ts::legacyBanner'), target: 'unresolved::*.flush', line: 2, candidates: 2 },
    ]);
  });

  test('find_usages: every context, and filters by context', () => {
    // The using symbol is the `nodes` entry a row's `from` names.
    const line =
      (nodes: readonly NodeSummary[]) =>
      (u: UsageRow): string =>
        `${nodes.find((n) => n.id === u.from)?.qual_name} ${u.kind} ${u.context} L${u.line} ${u.origin}`;
    const r = run('find_usages', { id: 'Config' });
    expect(r.usages.map(line(r.nodes))).toEqual([
      'loadConfig returns return_type L8 ast_resolved',
      'loadConfig instantiates call L9 ast_resolved',
      'defaultConfig typed_as type L12 ast_resolved',
      'applyConfig typed_as parameter_type L14 ast_resolved',
      'src/render.ts imports import L2 ast_resolved',
      'Renderer.config typed_as field L6 ast_resolved',
    ]);
    expect(r.by_context).toEqual({ call: 1, parameter_type: 1, field: 1, type: 1, return_type: 1, import: 1 });
    expect([r.total, r.truncated]).toEqual([6, false]);
    expect('caveat' in r).toBe(false);

    const some = run('find_usages', { id: 'Config', context: ['field', 'return_type'] });
    expect(some.usages.map((u) => u.context)).toEqual(['return_type', 'field']);
    const csv = run('find_usages', { id: 'Config', context: 'call, import' });
    expect(csv.by_context).toEqual({ call: 1, import: 1 });

    const version = run('find_usages', { id: 'VERSION' });
    expect(version.usages.map(line(version.nodes))).toEqual(['src/render.ts imports import L2 ast_resolved']);
    expect(version.caveat?.class).toBe('coverage_incomplete');
  });

  test('find_implementations: direct and through a sub-interface', () => {
    const r = run('find_implementations', { id: 'Shape' });
    expect(r.implementations.map((i) => `${i.node.qual_name} ${i.kind} ${i.implements} d${i.depth} L${i.line}`)).toEqual([
      `Circle implements ${id('src/shapes.ts::Shape')} d1 L11`,
      `Square implements ${id('src/shapes.ts::Shape')} d1 L21`,
      `Cube implements ${id('src/shapes.ts::Solid')} d2 L31`,
    ]);
    expect(r.sub_interfaces?.map((s) => [s.node.id, s.extends, s.depth])).toEqual([
      [id('src/shapes.ts::Solid'), id('src/shapes.ts::Shape'), 1],
    ]);
    expect([r.total, r.truncated]).toEqual([3, false]);

    const solid = run('find_implementations', { id: 'Solid' });
    expect(nodeIds(solid.implementations)).toEqual([id('src/shapes.ts::Cube')]);
    expect('sub_interfaces' in solid).toBe(false);
  });

  test('find_overrides: parents and children, derived from the hierarchy', () => {
    const r = run('find_overrides', { id: 'Cube.name' });
    expect(r.owner?.id).toBe(id('src/shapes.ts::Cube'));
    expect(r.parents.map((o) => [o.method.id, o.owner.qual_name, o.depth, o.origin])).toEqual([
      [id('src/shapes.ts::Square.name'), 'Square', 1, 'ast_resolved'],
      [id('src/shapes.ts::Shape.name'), 'Shape', 2, 'ast_resolved'],
    ]);
    expect(r.children).toEqual([]);

    const down = run('find_overrides', { id: 'Shape.name', direction: 'children' });
    expect(down.children.map((o) => `${o.method.qual_name} d${o.depth}`)).toEqual(['Circle.name d1', 'Square.name d1', 'Cube.name d2']);
    expect(down.parents).toEqual([]);
  });

  test('get_class_hierarchy: the subgraph around a type, with methods', () => {
    const r = run('get_class_hierarchy', { id: 'Square', include_methods: true });
    expect(r.root.id).toBe(id('src/shapes.ts::Square'));
    expect(r.nodes.map((n) => `${n.node.qual_name} ${n.side} d${n.depth}`)).toEqual(['Square root d0', 'Shape up d1', 'Cube down d1']);
    expect(r.nodes[0]!.methods).toEqual([
      { id: id('src/shapes.ts::Square.area'), name: 'area', line: 23, overrides: [id('src/shapes.ts::Shape.area')] },
      { id: id('src/shapes.ts::Square.name'), name: 'name', line: 26, overrides: [id('src/shapes.ts::Shape.name')] },
    ]);
    expect(r.nodes[1]!.methods).toEqual([
      { id: id('src/shapes.ts::Shape.area'), name: 'area', line: 3 },
      { id: id('src/shapes.ts::Shape.name'), name: 'name', line: 4 },
    ]);
    expect(r.edges).toEqual([
      { from: id('src/shapes.ts::Cube'), to: id('src/shapes.ts::Square'), kind: 'extends', origin: 'ast_resolved', line: 31 },
      { from: id('src/shapes.ts::Square'), to: id('src/shapes.ts::Shape'), kind: 'implements', origin: 'ast_resolved', line: 21 },
    ]);
    expect(r.truncated).toBe(false);

    const up = run('get_class_hierarchy', { id: 'Cube', direction: 'up' });
    expect(up.nodes.map((n) => `${n.node.qual_name} ${n.side} d${n.depth}`)).toEqual([
      'Cube root d0',
      'Solid up d1',
      'Square up d1',
      'Shape up d2',
    ]);
    expect(up.nodes.every((n) => !('methods' in n))).toBe(true);
    const method = run('get_class_hierarchy', { id: 'Square.name' });
    expect(method.edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`)).toEqual([
      `${id('src/shapes.ts::Cube.name')} -overrides-> ${id('src/shapes.ts::Square.name')}`,
      `${id('src/shapes.ts::Square.name')} -overrides-> ${id('src/shapes.ts::Shape.name')}`,
    ]);
  });

  test('get_cluster: the usage neighbourhood and the edges inside it', () => {
    const r = run('get_cluster', { id: 'summarize' });
    expect(r.center.id).toBe(id('src/render.ts::summarize'));
    expect(r.nodes.map((n) => `${n.node.qual_name} d${n.depth}`)).toEqual([
      'summarize d0',
      'render.summarizes d1',
      'Renderer.draw d1',
      'Shape d1',
      'Shape.area d1',
      'Shape.name d1',
    ]);
    expect(r.edges.map((e) => `${e.from.split('::')[1]} -${e.kind}-> ${e.to.split('::')[1]} L${e.line}`)).toEqual([
      'render.summarizes -calls-> summarize L6',
      'Renderer.draw -calls-> summarize L11',
      'Renderer.draw -typed_as-> Shape L10',
      'summarize -typed_as-> Shape L15',
      'summarize -calls-> Shape.area L17',
      'summarize -calls-> Shape.name L16',
    ]);
    expect([r.total, r.truncated]).toEqual([5, false]);

    const small = run('get_cluster', { id: 'summarize', limit: 2, include_tests: false });
    expect(small.nodes.map((n) => n.node.qual_name)).toEqual(['summarize', 'Renderer.draw', 'Shape']);
    expect([small.total, small.truncated]).toEqual([4, true]);
    expect(run('get_cluster', { id: 'summarize', depth: 2 }).total).toBe(10);
  });

  test('walk_graph: breadth-first over chosen edge kinds, within a token budget', () => {
    const r = run('walk_graph', { id: 'main', edge_kinds: 'calls,instantiates', max_depth: 2 });
    expect(r.start).toBe(id('src/render.ts::main'));
    expect([r.direction, r.edge_kinds]).toEqual(['out', ['calls', 'instantiates']]);
    // Rows are flat node summaries with a depth.
    expect(r.nodes.map((n) => `${n.qual_name} d${n.depth}`)).toEqual([
      'main d0',
      'applyConfig d1',
      'Renderer d1',
      'Renderer.draw d1',
      'decorate d1',
      'Circle d1',
      'formatLabel d2',
      'summarize d2',
    ]);
    expect(r.edges[5]).toEqual({
      from: id('src/render.ts::Renderer.draw'),
      to: id('src/format.ts::formatLabel'),
      kind: 'calls',
      origin: 'ast_resolved',
      line: 11,
    });
    expect(r.edges).toHaveLength(7);
    expect([r.depth_reached, r.budget_hit, r.truncated]).toEqual([2, false, false]);
    expect(r.tokens_used).toBeGreaterThan(0);
    expect('stopped_at_depth' in r).toBe(false);

    const inward = run('walk_graph', { id: 'Shape', direction: 'in', edge_kinds: ['implements', 'extends'] });
    expect(inward.nodes.map((n) => `${n.qual_name} d${n.depth}`)).toEqual(['Shape d0', 'Circle d1', 'Solid d1', 'Square d1', 'Cube d2']);
    expect(inward.edge_kinds).toEqual(['extends', 'implements']);

    const tight = run('walk_graph', { id: 'main', token_budget: 100 });
    expect([tight.budget_hit, tight.stopped_at_depth, tight.nodes.length]).toEqual([true, 1, 1]);
  });

  test('graph_query: the pipeline result and its parsed plan', () => {
    const r = run('graph_query', { query: 'nodes kind=interface | traverse implements,extends in | sort name' });
    expect(r.nodes.map((n) => n.qual_name)).toEqual(['Circle', 'Cube', 'Solid', 'Square']);
    expect([r.count, r.truncated]).toEqual([4, false]);
    expect(r.stages).toEqual([
      { stage: 1, op: 'nodes', filters: [{ key: 'kind', op: '=', value: 'interface' }], size: 2 },
      { stage: 2, op: 'traverse', edge_kinds: ['extends', 'implements'], direction: 'in', depth: 1, size: 4 },
      { stage: 3, op: 'sort', by: 'name', order: 'asc', size: 4 },
    ]);
    // The plan is a union tagged by `op`.
    const sort = r.stages.find((s) => s.op === 'sort');
    expect(sort?.op === 'sort' ? sort.by : null).toBe('name');

    const limited = run('graph_query', { query: 'nodes kind=method path=src/shapes.ts | filter name=name | limit 3', limit: 2 });
    expect(limited.nodes.map((n) => n.qual_name)).toEqual(['Circle.name', 'Cube.name']);
    expect([limited.count, limited.truncated]).toEqual([3, true]);
    expect(limited.stages.map((s) => `${s.op}:${s.size}`)).toEqual(['nodes:10', 'filter:4', 'limit:3']);
  });

  test('trace_path: the shortest call path, or a diagnosis', () => {
    const r = run('trace_path', { from: 'main', to: 'formatLabel' });
    expect([r.from.id, r.to.id]).toEqual([id('src/render.ts::main'), id('src/format.ts::formatLabel')]);
    expect(r.edge_kinds).toEqual(['calls', 'instantiates']);
    expect([r.length, r.shortest_paths, r.truncated]).toEqual([2, 1, false]);
    expect(r.paths?.[0]?.confidence).toBe(0.81);
    expect(r.paths?.[0]?.hops.map((h) => `${h.from} -${h.kind}-> ${h.to} L${h.line}`)).toEqual([
      `${id('src/render.ts::main')} -calls-> ${id('src/render.ts::Renderer.draw')} L26`,
      `${id('src/render.ts::Renderer.draw')} -calls-> ${id('src/format.ts::formatLabel')} L11`,
    ]);
    expect('diagnosis' in r).toBe(false);

    const back = run('trace_path', { from: 'formatLabel', to: 'main' });
    expect(['paths', 'length', 'shortest_paths'].filter((k) => k in back)).toEqual([]);
    expect(back.diagnosis).toMatchObject({
      from_outgoing: 0,
      to_incoming: 0,
      reachable: 0,
      depth_limited: false,
      reverse_hops: 2,
      undirected_hops: 2,
    });
    expect(back.diagnosis?.message).toMatch(/^No calls\/instantiates path from typed-app\/src\/format\.ts::formatLabel/);
  });

  test('find_import_path: the import chain between two files, or a diagnosis', () => {
    const r = run('find_import_path', { from: 'src/render.test.ts', to: id('src/shapes.ts') });
    expect([r.from, r.to]).toEqual(['src/render.test.ts', 'src/shapes.ts']);
    expect(r.path).toEqual(['src/render.test.ts', 'src/shapes.ts']);
    expect(r.hops).toEqual([{ from: 'src/render.test.ts', to: 'src/shapes.ts', kind: 'imports', line: 2 }]);
    expect('diagnosis' in r).toBe(false);

    const none = run('find_import_path', { from: 'src/cli.ts', to: 'src/shapes.ts', max_depth: 4 });
    expect(['path', 'hops'].filter((k) => k in none)).toEqual([]);
    expect(none.diagnosis).toEqual({
      message: 'No import chain from src/cli.ts to src/shapes.ts within 4 hops. 1 file(s) are reachable from src/cli.ts.',
      from_imports: 1,
      to_importers: 2,
      reachable: 1,
      depth_limited: false,
    });

    // With symbol: the statement that brings it into the file, beside the chain.
    const square = run('find_import_path', { from: 'src/cli.ts', symbol: 'Square' });
    expect(square.import).toMatchObject({ status: 'needs_import', statement: "import { Square } from './shapes';", module: './shapes', reference: 'Square' });
    expect(square.import!.symbol.id).toBe(id('src/shapes.ts::Square'));
    const already = run('find_import_path', { from: 'src/render.test.ts', symbol: 'Circle' });
    expect(already.import).toMatchObject({ status: 'already_imported', line: 2 });
    const beside = run('find_import_path', { from: 'src/render.test.ts', symbol: 'Square' });
    expect(beside.import).toMatchObject({ status: 'needs_import', line: 2, note: 'line 2 already imports from src/shapes.ts: add Square to that import' });
  });

  test('the repo option takes a name or may be left out when one repository is loaded', () => {
    expect(engine.query('get_symbol', { id: 'main' }, { repo: REPO }).node.id).toBe(id('src/render.ts::main'));
    expect(engine.query('get_symbol', { id: 'main' }).node.start_line).toBe(24);
  });

  describe('QueryError', () => {
    test('an unknown tool is invalid_argument and lists the tools (untyped escape hatch)', () => {
      const e = queryError(() => engine.query('get_caller', {}));
      expect(e).toBeInstanceOf(QueryError);
      expect(e.name).toBe('QueryError');
      expect(e.code).toBe('invalid_argument');
      expect(e.message).toMatch(/^unknown tool "get_caller"; query tools: search_symbols, /);
    });

    test('an unknown field is invalid_argument naming the field', () => {
      const args: object = { id: 'summarize', depht: 2 };
      const e = queryError(() => engine.query('get_callers', args));
      expect(e.code).toBe('invalid_argument');
      expect(e.message).toMatch(/^get_callers: unknown field `depht`/);
    });

    test('an unknown id is not_found', () => {
      const e = queryError(() => run('get_symbol', { id: id('src/nope.ts::X') }));
      expect(e.code).toBe('not_found');
      expect(e.message).toBe(
        `no node matches "${id('src/nope.ts::X')}" (tried node id, file path, qualified and bare symbol name); no similar names exist`,
      );
      expect(queryError(() => run('get_symbol', { id: 'sumarize' })).message).toMatch(
        /did you mean: typed-app\/src\/render\.ts::summarize, /,
      );
    });

    test('an ambiguous name is ambiguous and lists the candidate ids', () => {
      const e = queryError(() => run('get_callers', { id: 'area' }));
      expect(e.code).toBe('ambiguous');
      expect(e.message).toBe(
        `"area" matches 3 symbols; pass one of these ids: ${id('src/shapes.ts::Circle.area')} (method at src/shapes.ts:13), ` +
          `${id('src/shapes.ts::Shape.area')} (method at src/shapes.ts:3), ${id('src/shapes.ts::Square.area')} (method at src/shapes.ts:23)`,
      );
    });

    test('an invalid regex is invalid_argument', () => {
      const e = queryError(() => run('search_text', { query: '(', regexp: true }));
      expect(e.code).toBe('invalid_argument');
      expect(e.message).toMatch(/^invalid regex "\(": regex parse error/);
      expect(e.message).toMatch(/unclosed group/);
    });
  });
});
