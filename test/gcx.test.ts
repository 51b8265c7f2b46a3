/**
 * GCX1: the grammar (escapes, CR, blank lines, comments, sections, version and cell errors), the
 * generic fallback, and round trips of real tool results. Every tool runs through the real
 * registry (`callTool`) on a copy of `query/app-ts` indexed by the real addon; the test's own
 * field map for each tool says where every column comes from, and each decoded cell must equal
 * the source value (strings verbatim, numbers and booleans as JSON text, nested values as JSON).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine, type NodeSummary } from '../ts/engine/engine';
import type * as Q from '../ts/engine/engine';
import type { GraphStats } from '../ts/engine/types';
import { callTool } from '../ts/calls/dispatch';
import type { ToolContext } from '../ts/workspace/context';
import {
  decodeGcx,
  encodeGcx,
  GCX_LAYOUT_TOOLS,
  GcxDecodeError,
  gcxToObjects,
  GcxVersionError,
  type GcxSection,
  type SymbolSourceResult,
  type ReadFileResult,
} from '../ts/wire/gcx';
import { fixtureCopy, tempHome } from './helpers/repo';

/** What a cell must read for a source value: the test's own statement of the cell rule. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.replace(/\r/g, '');
  return JSON.stringify(value);
}

/** Where each column of a section comes from. */
interface SectionSpec {
  name: string;
  rows: readonly unknown[];
  /** Field name → the source value of a row, in layout order. */
  fields: Record<string, (row: any) => unknown>;
}

/** Where the header meta and every section of one tool's encoding come from. */
interface ToolSpec {
  meta: Record<string, unknown>;
  sections: SectionSpec[];
}

const FULL = ['id', 'kind', 'name', 'qualified', 'path', 'line', 'end_line', 'language', 'flavor', 'sig', 'exported', 'is_test', 'external'];
const LIST = ['id', 'kind', 'qualified', 'path', 'line', 'end_line', 'flavor', 'sig', 'exported', 'is_test', 'external'];

/** The node field behind each node column whose name differs from it. */
const NODE_FIELD: Record<string, string> = { qualified: 'qual_name', path: 'file_path', line: 'start_line', sig: 'signature' };

/** Node columns read from `pick(row)` (`qualified` is `qual_name`, `path` `file_path`, `line` `start_line`, `sig` `signature`). */
function node(pick: (row: any) => NodeSummary | undefined, fields: readonly string[]): SectionSpec['fields'] {
  return Object.fromEntries(
    fields.map((f) => [f, (row: any) => (pick(row) as Record<string, unknown> | undefined)?.[NODE_FIELD[f] ?? f]]),
  );
}

const self = (fields: readonly string[] = LIST): SectionSpec['fields'] => node((r) => r, fields);
/** Columns of a `search_symbols` hit (a row: its own `qualified`, `path`, `line` and `sig`; no `external`). */
const hit = (fields: readonly string[] = LIST): SectionSpec['fields'] =>
  Object.fromEntries(fields.map((f) => [f, (row: any) => (f === 'external' ? undefined : row[f])]));
const nodeSection = (name: string, n: NodeSummary | undefined): SectionSpec[] => (n ? [{ name, rows: [n], fields: self(FULL) }] : []);
const caveat = (name: string, c: Q.Caveat | undefined): SectionSpec[] =>
  c ? [{ name, rows: [c], fields: { class: (x) => x.class, message: (x) => x.message } }] : [];
const edgeFields: SectionSpec['fields'] = { from: (e) => e.from, to: (e) => e.to, kind: (e) => e.kind, origin: (e) => e.origin, line: (e) => e.line };
const tier = (r: Q.TierReport): Record<string, unknown> => ({ tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed });
const use = { path: (u: any) => u.path, line: (u: any) => u.line, column: (u: any) => u.column, identifier: (u: any) => u.identifier, origin: (u: any) => u.origin, text: (u: any) => u.text };

/** The test's field map for every tool with a layout. */
const SPECS: Record<string, (r: any) => ToolSpec> = {
  search_symbols: (r: Q.SearchSymbolsResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated, decomposed: r.decomposed, exact: r.exact, unmatched: r.unmatched },
    sections: [{ name: 'search_symbols', rows: r.results, fields: { ...hit(), score: (h) => h.score, tier: (h) => h.tier } }],
  }),
  winnow_symbols: (r: Q.WinnowSymbolsResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated },
    sections: [
      { name: 'winnow_symbols', rows: r.results, fields: { ...self(), score: (h) => h.score, fan_in: (h) => h.fan_in, fan_out: (h) => h.fan_out, churn: (h) => h.churn, axes: (h) => h.axes } },
    ],
  }),
  search_text: (r: Q.SearchTextResult): ToolSpec => ({
    meta: { total_hits: r.total_hits, truncated: r.truncated, files_matched: r.files_matched, candidate_files: r.candidate_files, docs: r.docs, unreadable_files: r.unreadable_files },
    sections: [
      {
        name: 'search_text',
        rows: r.hits,
        fields: { path: (h) => h.path, line: (h) => h.line, column: (h) => h.column, symbol_id: (h) => h.symbol_id, symbol_name: (h) => h.symbol_name, text: (h) => h.text },
      },
    ],
  }),
  find_files: (r: Q.FindFilesResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated },
    sections: [{ name: 'find_files', rows: r.results, fields: { path: (f) => f.path, language: (f) => f.language, match: (f) => f.match, score: (f) => f.score, symbols: (f) => f.symbols } }],
  }),
  find_declaration: (r: Q.FindDeclarationResult): ToolSpec => {
    const withUses = r.declarations.filter((d) => d.uses);
    return {
      meta: { use_sites: r.use_sites, truncated: r.truncated, candidate_files: r.candidate_files },
      sections: [
        {
          name: 'find_declaration',
          rows: r.declarations,
          fields: { ...node((d) => d.node, LIST), origin: (d) => d.origin, resolved_uses: (d) => d.resolved_uses, matched_declaration: (d) => d.matched_declaration },
        },
        ...(withUses.length
          ? [
              {
                name: 'find_declaration.uses',
                rows: withUses.flatMap((d) => d.uses!.map((u) => ({ decl: d.node.id, ...u }))),
                fields: { decl: (u: any) => u.decl, ...use },
              },
            ]
          : []),
        ...(r.unresolved_uses ? [{ name: 'find_declaration.unresolved_uses', rows: r.unresolved_uses, fields: use }] : []),
      ],
    };
  },
  get_symbol: (r: Q.GetSymbolResult): ToolSpec => ({
    meta: {},
    sections: [
      {
        name: 'get_symbol',
        rows: [r],
        fields: {
          ...node((x) => x.node, FULL),
          ...Object.fromEntries(
            ['visibility', 'decorators', 'type_name', 'return_type', 'is_async', 'is_static', 'is_abstract', 'test_role', 'test_runner', 'edges_in', 'edges_out', 'unresolved_out'].map(
              (k) => [k, (x: any) => x[k]],
            ),
          ),
        },
      },
      ...nodeSection('get_symbol.parent', r.parent),
      ...(r.doc !== undefined ? [{ name: 'get_symbol.doc', rows: [r.doc], fields: { doc: (d: string) => d } }] : []),
    ],
  }),
  get_file_summary: (r: Q.GetFileSummaryResult): ToolSpec => ({
    meta: { truncated: r.truncated, ...r.counts },
    sections: [
      {
        name: 'get_file_summary',
        rows: r.symbols,
        fields: { ...node((s) => s.symbol, ['id', 'kind', 'qualified', 'line', 'end_line', 'flavor', 'sig', 'exported', 'is_test']), parent: (s) => s.parent, depth: (s) => s.depth },
      },
      ...nodeSection('get_file_summary.file', r.file),
      {
        name: 'get_file_summary.imports',
        rows: r.imports,
        fields: { line: (i) => i.line, kind: (i) => i.kind, module: (i) => i.module, target: (i) => i.target, status: (i) => i.status, origin: (i) => i.origin, symbols: (i) => i.symbols },
      },
    ],
  }),
  get_callers: (r: Q.GetCallersResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated, ...tier(r) },
    sections: [
      {
        name: 'get_callers',
        rows: r.callers,
        fields: {
          ...node((c) => c.caller, ['id', 'kind', 'qualified', 'line', 'sig', 'is_test']),
          edge: (c) => c.kind,
          origin: (c) => c.origin,
          path: (c) => c.path,
          lines: (c) => c.lines,
          depth: (c) => c.depth,
          callee: (c) => c.callee,
          via: (c) => c.via,
        },
      },
      ...nodeSection('get_callers.target', r.target),
      ...caveat('get_callers.caveat', r.caveat),
    ],
  }),
  get_call_chain: (r: Q.GetCallChainResult): ToolSpec => ({
    meta: { total: r.total, unresolved_total: r.unresolved_total, truncated: r.truncated, ...tier(r) },
    sections: [
      { name: 'get_call_chain', rows: r.nodes, fields: { ...node((n) => n.node, LIST), depth: (n) => n.depth } },
      { name: 'get_call_chain.calls', rows: r.calls, fields: { from: (c) => c.from, to: (c) => c.to, kind: (c) => c.kind, origin: (c) => c.origin, depth: (c) => c.depth, line: (c) => c.line } },
      ...(r.unresolved
        ? [{ name: 'get_call_chain.unresolved', rows: r.unresolved, fields: { from: (u: any) => u.from, target: (u: any) => u.target, line: (u: any) => u.line, candidates: (u: any) => u.candidates } }]
        : []),
    ],
  }),
  find_usages: (r: Q.FindUsagesResult): ToolSpec => ({
    meta: { by_context: r.by_context, total: r.total, truncated: r.truncated, ...tier(r) },
    sections: [
      {
        name: 'find_usages',
        rows: r.usages,
        fields: { id: (u) => u.from, ...node((u) => r.nodes.find((n) => n.id === u.from), ['kind', 'qualified', 'is_test']), edge: (u) => u.kind, context: (u) => u.context, origin: (u) => u.origin, path: (u) => u.path, site: (u) => u.line, from_type_flavor: (u) => u.from_type_flavor, from_ui_component: (u) => u.from_ui_component, via: (u) => u.via },
      },
      ...nodeSection('find_usages.target', r.target),
      ...caveat('find_usages.caveat', r.caveat),
    ],
  }),
  get_dependencies: (r: Q.GetDependenciesResult): ToolSpec => dependencySpec('get_dependencies', r, r.nodes),
  get_dependents: (r: Q.GetDependentsResult): ToolSpec => dependencySpec('get_dependents', r, r.nodes, r.caveat),
  find_implementations: (r: Q.FindImplementationsResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated, ...tier(r) },
    sections: [
      {
        name: 'find_implementations',
        rows: r.implementations,
        fields: {
          ...node((i) => i.node, ['id', 'kind', 'qualified', 'path', 'line', 'flavor', 'sig', 'exported']),
          implements: (i) => i.implements,
          edge: (i) => i.kind,
          origin: (i) => i.origin,
          site: (i) => i.line,
          depth: (i) => i.depth,
        },
      },
      ...(r.sub_interfaces
        ? [
            {
              name: 'find_implementations.sub_interfaces',
              rows: r.sub_interfaces,
              fields: { ...node((s) => s.node, ['id', 'kind', 'qualified', 'path', 'line', 'sig', 'exported']), extends: (s: any) => s.extends, origin: (s: any) => s.origin, depth: (s: any) => s.depth },
            },
          ]
        : []),
      ...nodeSection('find_implementations.target', r.target),
    ],
  }),
  find_overrides: (r: Q.FindOverridesResult): ToolSpec => ({
    meta: { truncated: r.truncated, ...tier(r) },
    sections: [
      {
        name: 'find_overrides',
        rows: [...r.parents.map((o) => ({ list: 'parents', ...o })), ...r.children.map((o) => ({ list: 'children', ...o }))],
        fields: { list: (x) => x.list, ...node((x) => x.method, ['id', 'kind', 'qualified', 'path', 'line', 'sig']), owner: (x) => x.owner.id, depth: (x) => x.depth, origin: (x) => x.origin },
      },
      ...nodeSection('find_overrides.target', r.target),
      ...nodeSection('find_overrides.owner', r.owner),
    ],
  }),
  get_class_hierarchy: (r: Q.GetClassHierarchyResult): ToolSpec => {
    const listed = r.nodes.filter((n) => n.methods);
    return {
      meta: { truncated: r.truncated, ...tier(r) },
      sections: [
        { name: 'get_class_hierarchy', rows: r.nodes, fields: { ...node((n) => n.node, LIST), side: (n) => n.side, depth: (n) => n.depth } },
        { name: 'get_class_hierarchy.edges', rows: r.edges, fields: edgeFields },
        ...(listed.length
          ? [
              {
                name: 'get_class_hierarchy.methods',
                rows: listed.flatMap((n) => n.methods!.map((m) => ({ type: n.node.id, ...m }))),
                fields: { type: (m: any) => m.type, id: (m: any) => m.id, name: (m: any) => m.name, line: (m: any) => m.line, overrides: (m: any) => m.overrides },
              },
            ]
          : []),
      ],
    };
  },
  get_cluster: (r: Q.GetClusterResult): ToolSpec => ({
    meta: { total: r.total, truncated: r.truncated, ...tier(r) },
    sections: [
      { name: 'get_cluster', rows: r.nodes, fields: { ...node((n) => n.node, LIST), depth: (n) => n.depth } },
      { name: 'get_cluster.edges', rows: r.edges, fields: edgeFields },
    ],
  }),
  walk_graph: (r: Q.WalkGraphResult): ToolSpec => ({
    meta: {
      start: r.start,
      direction: r.direction,
      edge_kinds: r.edge_kinds,
      budget_hit: r.budget_hit,
      truncated: r.truncated,
      stopped_at_depth: r.stopped_at_depth,
      depth_reached: r.depth_reached,
      tokens_used: r.tokens_used,
    },
    sections: [
      { name: 'walk_graph', rows: r.nodes, fields: { ...self(), depth: (n) => n.depth } },
      { name: 'walk_graph.edges', rows: r.edges, fields: edgeFields },
    ],
  }),
  graph_query: (r: Q.GraphQueryResult): ToolSpec => ({
    meta: { count: r.count, truncated: r.truncated },
    sections: [
      { name: 'graph_query', rows: r.nodes, fields: self() },
      {
        name: 'graph_query.stages',
        rows: r.stages,
        fields: Object.fromEntries(['stage', 'op', 'size', 'filters', 'edge_kinds', 'direction', 'depth', 'min_tier', 'by', 'order', 'n'].map((k) => [k, (s: any) => s[k]])),
      },
    ],
  }),
  trace_path: (r: Q.TracePathResult): ToolSpec => {
    const d = r.diagnosis;
    return {
      meta: { edge_kinds: r.edge_kinds, length: r.length, shortest_paths: r.shortest_paths, truncated: r.truncated },
      sections: [
        { name: 'trace_path', rows: [{ end: 'from', ...r.from }, { end: 'to', ...r.to }], fields: { end: (e) => e.end, ...self(FULL) } },
        ...(r.paths
          ? [
              { name: 'trace_path.paths', rows: r.paths.map((p, i) => ({ path: i + 1, ...p })), fields: { path: (p: any) => p.path, confidence: (p: any) => p.confidence } },
              { name: 'trace_path.hops', rows: r.paths.flatMap((p, i) => p.hops.map((h) => ({ path: i + 1, ...h }))), fields: { path: (h: any) => h.path, ...edgeFields } },
            ]
          : []),
        ...(d
          ? [
              {
                name: 'trace_path.diagnosis',
                rows: [d],
                fields: Object.fromEntries(
                  ['from_outgoing', 'to_incoming', 'reachable', 'depth_limited', 'reverse_hops', 'undirected_hops', 'with_references_hops', 'ignoring_min_tier_hops', 'message'].map((k) => [
                    k,
                    (x: any) => x[k],
                  ]),
                ),
              },
              ...(d.unresolved
                ? [{ name: 'trace_path.unresolved', rows: d.unresolved, fields: Object.fromEntries(['from', 'kind', 'target', 'line', 'candidates'].map((k) => [k, (x: any) => x[k]])) }]
                : []),
            ]
          : []),
      ],
    };
  },
  find_import_path: (r: Q.FindImportPathResult): ToolSpec => {
    const d = r.diagnosis;
    return {
      meta: { from: r.from, to: r.to },
      sections: [
        { name: 'find_import_path', rows: r.hops ?? [], fields: { from: (h) => h.from, to: (h) => h.to, kind: (h) => h.kind, line: (h) => h.line } },
        ...(r.import
          ? [
              {
                name: 'find_import_path.import',
                rows: [r.import],
                fields: { symbol: (x: any) => x.symbol.id, ...Object.fromEntries(['status', 'statement', 'module', 'reference', 'line', 'note'].map((k) => [k, (x: any) => x[k]])) },
              },
            ]
          : []),
        ...(d
          ? [
              {
                name: 'find_import_path.diagnosis',
                rows: [d],
                fields: Object.fromEntries(['from_imports', 'to_importers', 'reachable', 'depth_limited', 'reverse_hops', 'message'].map((k) => [k, (x: any) => x[k]])),
              },
              ...(d.unresolved_imports
                ? [{ name: 'find_import_path.unresolved_imports', rows: d.unresolved_imports, fields: { file: (u: any) => u.file, module: (u: any) => u.module, line: (u: any) => u.line } }]
                : []),
            ]
          : []),
      ],
    };
  },
  graph_stats: (r: GraphStats): ToolSpec => ({
    meta: {
      name: r.name,
      root: r.root,
      files: r.files,
      nodes: r.nodes,
      edges: r.edges,
      unresolved: r.unresolved,
      edge_identity_revisions: r.edge_identity_revisions,
      indexed_at_ms: r.indexed_at_ms,
      snapshot_path: r.snapshot_path,
      search_memory: r.search_memory,
      provisional: r.provisional,
      token_savings: (r as GraphStats & { token_savings?: unknown }).token_savings,
    },
    sections: [
      { name: 'graph_stats', rows: Object.entries(r.nodes_by_kind), fields: { kind: (e) => e[0], count: (e) => e[1] } },
      { name: 'graph_stats.edges_by_kind', rows: Object.entries(r.edges_by_kind), fields: { kind: (e) => e[0], count: (e) => e[1] } },
      { name: 'graph_stats.edges_by_origin', rows: Object.entries(r.edges_by_origin), fields: { origin: (e) => e[0], count: (e) => e[1] } },
      { name: 'graph_stats.nodes_by_language', rows: Object.entries(r.nodes_by_language), fields: { language: (e) => e[0], count: (e) => e[1] } },
    ],
  }),
  read_file: (r: ReadFileResult): ToolSpec => ({
    meta: { total_lines: r.total_lines, truncated: r.truncated },
    sections: [{ name: 'read_file', rows: [r], fields: { path: (x) => x.path, start_line: (x) => x.start_line, end_line: (x) => x.end_line, text: (x) => x.text } }],
  }),
  get_symbol_source: (r: SymbolSourceResult): ToolSpec => ({
    meta: { total_lines: r.total_lines, truncated: r.truncated, tokens_saved: r.tokens_saved },
    sections: [
      {
        name: 'get_symbol_source',
        rows: [r],
        fields: {
          ...node((x) => x.node, ['id', 'kind', 'qualified', 'line', 'end_line', 'sig']),
          path: (x) => x.path,
          from_line: (x) => x.from_line,
          to_line: (x) => x.to_line,
          text: (x) => x.source,
        },
      },
    ],
  }),
};

function dependencySpec(tool: string, r: Q.GetDependenciesResult | Q.GetDependentsResult, rows: Q.DependencyRow[], c?: Q.Caveat): ToolSpec {
  return {
    meta: { mode: r.mode, by_depth: r.by_depth, total: r.total, truncated: r.truncated, ...tier(r) },
    sections: [
      {
        name: tool,
        rows,
        fields: {
          ...node((d) => d, ['id', 'kind', 'qualified', 'path', 'line', 'sig', 'exported', 'is_test', 'external']),
          depth: (d) => d.depth,
          kinds: (d) => d.edge_kinds,
          origin: (d) => d.origin,
          site: (d) => d.line,
          via: (d) => d.via,
        },
      },
      ...nodeSection(`${tool}.target`, r.target),
      ...caveat(`${tool}.caveat`, c),
    ],
  };
}

/**
 * Decodes `text` and checks it against `spec`: the section names in order, the first header's
 * meta (every present value, nothing else but `rows`), each section's `rows=` count, its field
 * list (the spec's fields in order, minus columns empty in every row) and every cell.
 * Returns the number of cells compared.
 */
function expectMatches(text: string, spec: ToolSpec): number {
  const sections = decodeGcx(text);
  expect(sections.map((s) => s.name)).toEqual(spec.sections.map((s) => s.name));
  const expectedMeta: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.meta)) if (value !== undefined && value !== null) expectedMeta[key] = cellText(value);
  expect(sections[0]!.meta).toEqual({ ...expectedMeta, rows: String(spec.sections[0]!.rows.length) });
  let cells = 0;
  spec.sections.forEach((want, i) => {
    const got = sections[i]!;
    if (i > 0) expect(got.meta).toEqual({ rows: String(want.rows.length) });
    expect(got.rows).toHaveLength(want.rows.length);
    const all = Object.keys(want.fields);
    let present = want.rows.length === 0 ? all : all.filter((f) => want.rows.some((row) => cellText(want.fields[f]!(row)) !== ''));
    if (present.length === 0) present = all.slice(0, 1);
    expect(got.fields).toEqual(present);
    const objects = gcxToObjects(got);
    want.rows.forEach((row, r) => {
      for (const field of all) {
        expect({ section: want.name, row: r, field, cell: objects[r]![field] ?? '' }).toEqual({
          section: want.name,
          row: r,
          field,
          cell: cellText(want.fields[field]!(row)),
        });
        cells++;
      }
    });
  });
  return cells;
}

/** Source text with tabs, backslashes, unicode, a leading `#` line and a fake header line. */
const ODD_SOURCE = [
  '// odd.ts: escapes on the wire',
  'export function odd(): string {',
  '\treturn "tab\\there" + \'\\\\\' + "ünïcødé 🎉";',
  '}',
  'export const notes = `',
  '# not a comment',
  'GCX1 tool=fake fields=a',
  '`;',
  '',
].join('\n');

/** Calls per tool; the first of each list-shaped tool also goes into the size comparison. */
const CALLS: [string, Record<string, unknown>][] = [
  ['search_symbols', { query: 'summarize', limit: 5 }],
  ['search_symbols', { query: 'kind:interface shape' }],
  ['search_symbols', { query: 'getShapeAreaXyz' }],
  ['winnow_symbols', { kind: 'method', path_prefix: 'src/shapes.ts', min_fan_in: 1 }],
  ['search_text', { query: 'summarize(' }],
  ['search_text', { query: 'ünïcødé' }],
  ['find_files', { query: 'render' }],
  ['find_declaration', { query: 'summarize(' }],
  ['find_declaration', { query: '.log(' }],
  ['get_symbol', { id: 'Renderer.draw' }],
  ['get_symbol', { id: 'Shape' }],
  ['get_symbol', { id: 'render.summarizes' }],
  ['get_file_summary', { path: 'src/render.ts' }],
  ['get_file_summary', { path: 'src/shapes.ts', limit: 2 }],
  ['get_callers', { id: 'summarize', depth: 2 }],
  ['get_callers', { id: 'shout' }],
  ['get_callers', { id: 'padLabel', min_tier: 'ast_resolved' }],
  ['get_call_chain', { id: 'main' }],
  ['get_call_chain', { id: 'legacyBanner', min_tier: 'ast_inferred' }],
  ['find_usages', { id: 'Config' }],
  ['find_usages', { id: 'VERSION' }],
  ['get_dependencies', { id: 'Renderer', kinds: ['calls'], depth: 2 }],
  ['get_dependencies', { id: 'src/render.ts', depth: 2 }],
  ['get_dependents', { id: 'summarize', depth: 2 }],
  ['get_dependents', { id: 'src/format.ts', min_tier: 'text_matched' }],
  ['get_dependents', { id: 'legacyBanner' }],
  ['find_implementations', { id: 'Shape' }],
  ['find_overrides', { id: 'Cube.name' }],
  ['get_class_hierarchy', { id: 'Square', include_methods: true }],
  ['get_cluster', { id: 'summarize' }],
  ['walk_graph', { id: 'main', edge_kinds: 'calls,instantiates', max_depth: 2 }],
  ['walk_graph', { id: 'main', token_budget: 100 }],
  ['graph_query', { query: 'nodes kind=interface | traverse implements,extends in | sort name' }],
  ['graph_query', { query: 'nodes kind=method path=src/shapes.ts | filter name=name | limit 3', limit: 2 }],
  ['trace_path', { from: 'main', to: 'formatLabel' }],
  ['trace_path', { from: 'formatLabel', to: 'main' }],
  ['find_import_path', { from: 'src/render.test.ts', to: 'src/shapes.ts' }],
  ['find_import_path', { from: 'src/cli.ts', to: 'src/shapes.ts', max_depth: 4 }],
  ['find_import_path', { from: 'src/cli.ts', symbol: 'Square' }],
  ['get_symbol_source', { id: 'summarize', context_lines: 1 }],
  ['read_file', { path: 'src/odd.ts' }],
  ['read_file', { path: 'src/crlf.ts' }],
  ['read_file', { path: 'src/render.ts', start_line: 10, end_line: 12 }],
  ['graph_stats', {}],
];

/** Tools whose main answer is a list of rows. */
const LIST_SHAPED = [
  'search_symbols',
  'winnow_symbols',
  'search_text',
  'find_files',
  'find_declaration',
  'get_file_summary',
  'get_callers',
  'get_call_chain',
  'find_usages',
  'get_dependencies',
  'get_dependents',
  'find_implementations',
  'find_overrides',
  'get_class_hierarchy',
  'get_cluster',
  'walk_graph',
  'graph_query',
];

describe('GCX1 grammar', () => {
  test('cells escape backslash, tab and newline; unicode passes through; absent columns are left out', () => {
    const text = encodeGcx('probe', { a: 'tab\there', b: 'two\nlines', c: 'back\\slash', d: 'ünï 🎉', e: 42, f: true, g: null, h: { x: [1, 'y z'] } });
    expect(text).toBe('GCX1 tool=probe rows=1 fields=a,b,c,d,e,f,h\ntab\\there\ttwo\\nlines\tback\\\\slash\tünï 🎉\t42\ttrue\t{"x":[1,"y z"]}\n');
    expect(gcxToObjects(decodeGcx(text)[0]!)).toEqual([{ a: 'tab\there', b: 'two\nlines', c: 'back\\slash', d: 'ünï 🎉', e: '42', f: 'true', h: '{"x":[1,"y z"]}' }]);
  });

  test('an unknown escape reads as its character, a dangling backslash as nothing', () => {
    const [s] = decodeGcx('GCX1 tool=t fields=a,b,c\n\\q\\\\\\t\tend\\\t\\n\\\n');
    expect(s!.rows).toEqual([['q\\\t', 'end', '\n']]);
  });

  test('CR is stripped on encode and ignored on decode (CRLF payloads read the same)', () => {
    const text = encodeGcx('probe', { text: 'a\r\nb\rc' });
    expect(text).toBe('GCX1 tool=probe rows=1 fields=text\na\\nbc\n');
    const crlf = 'GCX1 tool=t k=v fields=a,b\r\nx\ty\r\n\r\nz\r\n';
    expect(decodeGcx(crlf)).toEqual([{ name: 't', meta: { k: 'v' }, fields: ['a', 'b'], rows: [['x', 'y'], ['z', '']] }]);
  });

  test('blank lines and # comments are skipped; a new GCX1 line starts a new section', () => {
    const text = ['# produced by hand', '', 'GCX1 tool=one b=2 a=1 fields=x', '#', 'r1', '', '# between', 'r2', 'GCX1 tool=one.more fields=y,z', '1\t2', ''].join('\n');
    expect(decodeGcx(text)).toEqual([
      { name: 'one', meta: { b: '2', a: '1' }, fields: ['x'], rows: [['r1'], ['r2']] },
      { name: 'one.more', meta: {}, fields: ['y', 'z'], rows: [['1', '2']] },
    ]);
  });

  test('meta is written in sorted order and values are unescaped on decode', () => {
    const text = encodeGcx('find_files', { truncated: false, total: 0, results: [], z: 'a\\b', a: 1 });
    expect(text.split('\n')[0]).toBe('GCX1 tool=find_files a=1 rows=0 total=0 truncated=false z=a\\\\b fields=path,language,match,score,symbols');
    expect(decodeGcx(text)[0]!.meta).toEqual({ a: '1', rows: '0', total: '0', truncated: 'false', z: 'a\\b' });
  });

  test('another version tag is rejected with a clear error, even after a GCX1 section', () => {
    const reject = (text: string): GcxVersionError => {
      try {
        decodeGcx(text);
      } catch (error) {
        if (error instanceof GcxVersionError) return error;
        throw error;
      }
      throw new Error('expected a GcxVersionError');
    };
    const e = reject('GCX2 tool=x fields=a\nv\n');
    expect(e).toBeInstanceOf(GcxDecodeError);
    expect([e.name, e.version, e.line]).toEqual(['GcxVersionError', 'GCX2', 1]);
    expect(e.message).toBe('GCX line 1: unsupported wire format version GCX2: this decoder reads GCX1 only; request the JSON format instead');
    expect(reject('GCX1 tool=x fields=a\nv\nGCX10 tool=y fields=b\n').line).toBe(3);
  });

  test('extra cells are an error; missing trailing cells read as empty', () => {
    expect(() => decodeGcx('GCX1 tool=t fields=a,b\n1\t2\t3\n')).toThrow(
      new GcxDecodeError('row has 3 cells but section t has 2 fields (a,b)', 2),
    );
    expect(() => decodeGcx('GCX1 tool=t fields=a,b\n1\t2\t3\n')).toThrow('GCX line 2: row has 3 cells but section t has 2 fields (a,b)');
    expect(gcxToObjects(decodeGcx('GCX1 tool=t fields=a,b,c\n1\n\t2\n')[0]!)).toEqual([
      { a: '1', b: '', c: '' },
      { a: '', b: '2', c: '' },
    ]);
  });

  test('malformed payloads are refused with the line at fault', () => {
    const bad: [string, string][] = [
      ['', 'no GCX1 section in the payload'],
      ['# only a comment\n\n', 'no GCX1 section in the payload'],
      ['x\ty\n', 'GCX line 1: row before any GCX1 header'],
      ['GCX1 fields=a\n', 'GCX line 1: header has no tool='],
      ['GCX1 tool=t\n', 'GCX line 1: header of t has no fields='],
      ['GCX1 tool=t fields=a,,b\n', 'GCX line 1: fields= of t has an empty name'],
      ['GCX1 tool=t fields=a,a\n', 'GCX line 1: fields= of t repeats a name'],
      ['GCX1 tool=t k=1 k=2 fields=a\n', 'GCX line 1: header repeats k='],
      ['GCX1 tool=t loose fields=a\n', 'GCX line 1: header item "loose" is not key=value'],
      ['GCX1 tool=t rows=2 fields=a\nv\n', 'GCX line 1: section t declares rows=2 but holds 1'],
      ['GCX1 tool=t fields=a\nv\nGCX1 tool=u rows=0 fields=b\nw\n', 'GCX line 3: section u declares rows=0 but holds 1'],
    ];
    for (const [text, message] of bad) expect(() => decodeGcx(text)).toThrow(message);
  });

  test('a first cell that looks like a comment or a header, and an all-empty row, survive the trip', () => {
    const values = ['#not a comment', 'GCX1 tool=evil fields=a', '', 'plain', 'GCX2'];
    const text = encodeGcx('probe', values);
    expect(text).toBe('GCX1 tool=probe rows=5 fields=value\n\\#not a comment\n\\GCX1 tool=evil fields=a\n\\\nplain\n\\GCX2\n');
    expect(decodeGcx(text)[0]!.rows).toEqual(values.map((v) => [v]));
    const empty = encodeGcx('probe', [{ a: '', b: 'x' }, { a: '', b: '' }]);
    expect(empty).toBe('GCX1 tool=probe rows=2 fields=b\nx\n\\\n');
    expect(decodeGcx(empty)[0]!.rows).toEqual([['x'], ['']]);
  });

  test('generic fallback: arrays of objects, scalars, odd keys and empty objects', () => {
    expect(encodeGcx('t', [{ b: 1 }, { a: 'x', c: [1] }])).toBe('GCX1 tool=t rows=2 fields=a,b,c\n\t1\nx\t\t[1]\n');
    expect(encodeGcx('t', 'just text')).toBe('GCX1 tool=t rows=1 fields=value\njust text\n');
    expect(encodeGcx('t', 7)).toBe('GCX1 tool=t rows=1 fields=value\n7\n');
    expect(encodeGcx('t', [])).toBe('GCX1 tool=t rows=0 fields=value\n');
    expect(encodeGcx('t', [1, { a: 1 }])).toBe('GCX1 tool=t rows=2 fields=value\n1\n{"a":1}\n');
    expect(encodeGcx('t', { 'a b': 1, c: 2 })).toBe('GCX1 tool=t rows=1 fields=value\n{"a b":1,"c":2}\n');
    expect(encodeGcx('t', {})).toBe('GCX1 tool=t rows=1 fields=value\n{}\n');
    expect(encodeGcx('t', null)).toBe('GCX1 tool=t rows=1 fields=value\n\\\n');
  });

  test('generic fallback: a record of row lists becomes one section per list, nested objects spread one level', () => {
    const result = {
      total: 2,
      note: 'two words',
      dead: [
        { symbol: { id: 'r/a.ts::f', line: 3 }, confidence: 'high' },
        { symbol: { id: 'r/b.ts::g', line: 9 }, confidence: 'medium', tags: ['x'] },
      ],
      by_kind: { function: 2 },
      extra: [{ k: 1 }],
    };
    const text = encodeGcx('analyze', result);
    expect(text).toBe(
      'GCX1 tool=analyze of=dead rows=2 total=2 fields=confidence,symbol.id,symbol.line,tags\n' +
        'high\tr/a.ts::f\t3\n' +
        'medium\tr/b.ts::g\t9\t["x"]\n' +
        'GCX1 tool=analyze.extra of=extra rows=1 fields=k\n1\n' +
        'GCX1 tool=analyze.meta rows=2 fields=key,value\nby_kind\t{"function":2}\nnote\ttwo words\n',
    );
    const [dead] = decodeGcx(text);
    expect(dead!.fields).toEqual(['confidence', 'symbol.id', 'symbol.line', 'tags']);
  });

  test('a result that does not fit its layout falls back to the generic form', () => {
    expect(encodeGcx('search_symbols', { oops: 'no results key' })).toBe('GCX1 tool=search_symbols rows=1 fields=oops\nno results key\n');
    expect(encodeGcx('read_file', [1])).toBe('GCX1 tool=read_file rows=1 fields=value\n1\n');
  });

  test('top-level fields a layout does not know become meta; whitespace and reserved keys go to the .meta section', () => {
    const text = encodeGcx('find_files', { results: [], total: 0, truncated: false, extra: 3, note: 'two words', rows: 9 });
    expect(text).toBe(
      'GCX1 tool=find_files extra=3 rows=0 total=0 truncated=false fields=path,language,match,score,symbols\n' +
        'GCX1 tool=find_files.meta rows=2 fields=key,value\nnote\ttwo words\nrows\t9\n',
    );
  });

  test('a tool name that cannot be a section name is refused', () => {
    for (const bad of ['', 'two words', 'a,b', 'k=v', 'back\\slash']) expect(() => encodeGcx(bad, {})).toThrow(TypeError);
  });
});

describe('GCX1 round trips of real tool results', () => {
  let root: string;
  let engine: Engine;
  let ctx: ToolContext;

  beforeAll(async () => {
    root = fixtureCopy('query/app-ts', 'gcx-app');
    fs.writeFileSync(path.join(root, 'src', 'odd.ts'), ODD_SOURCE);
    fs.writeFileSync(path.join(root, 'src', 'crlf.ts'), 'export const a = 1;\r\nexport const b = 2;\r\n');
    engine = new Engine({ home: tempHome(), threads: 2 });
    const report = await engine.indexRepo(root);
    expect(report.failures).toEqual([]);
    ctx = { engine, repo: root, root };
  });

  test('every tool with a layout is exercised here', () => {
    expect([...new Set(CALLS.map(([tool]) => tool))].sort()).toEqual([...GCX_LAYOUT_TOOLS].sort());
  });

  test.each(CALLS)('%s %j decodes back to every value it includes', async (tool, args) => {
    const result = await callTool(ctx, tool, args);
    const text = encodeGcx(tool, result);
    const cells = expectMatches(text, SPECS[tool]!(result));
    expect(cells).toBeGreaterThan(0);
    if (LIST_SHAPED.includes(tool) && CALLS.find(([t]) => t === tool)![1] === args) {
      const gcx = Buffer.byteLength(text);
      const json = Buffer.byteLength(JSON.stringify(result));
      expect(gcx).toBeLessThan(json);
    }
  });

  test('pinned encodings: search_symbols header and rows, read_file text with tabs, backslashes and unicode', async () => {
    const r = await callTool(ctx, 'search_symbols', { query: 'summarize', limit: 5 });
    const lines = encodeGcx('search_symbols', r).split('\n');
    expect(lines[0]).toBe('GCX1 tool=search_symbols exact=true rows=2 total=2 truncated=false fields=id,kind,qualified,path,line,end_line,sig,exported,is_test,score,tier');
    expect(lines[1]).toBe('gcx-app/src/render.ts::summarize\tfunction\tsummarize\tsrc/render.ts\t15\t18\tfunction summarize(s: Shape): string\ttrue\t\t100\texact');

    const file = (await callTool(ctx, 'read_file', { path: 'src/odd.ts' })) as ReadFileResult;
    expect(file.text).toBe(ODD_SOURCE);
    const text = encodeGcx('read_file', file);
    expect(text.split('\n')).toHaveLength(3); // the header, one row, and the empty tail after the final LF
    const [row] = gcxToObjects(decodeGcx(text)[0]!);
    expect(row).toEqual({ path: 'src/odd.ts', start_line: '1', end_line: '8', text: ODD_SOURCE });
    expect(text).toContain('\\t');
    expect(text).toContain('ünïcødé 🎉');

    const hit = (await callTool(ctx, 'search_text', { query: 'ünïcødé' })) as Q.SearchTextResult;
    expect(hit.hits.map((h) => h.text)).toEqual(['\treturn "tab\\there" + \'\\\\\' + "ünïcødé 🎉";']);
    expect(gcxToObjects(decodeGcx(encodeGcx('search_text', hit))[0]!)[0]!.text).toBe(hit.hits[0]!.text);
  });

  test('a CRLF file reads back with LF line ends only (CR is stripped on encode)', async () => {
    const file = (await callTool(ctx, 'read_file', { path: 'src/crlf.ts' })) as ReadFileResult;
    expect(file.text).toBe('export const a = 1;\r\nexport const b = 2;\r\n');
    expect(gcxToObjects(decodeGcx(encodeGcx('read_file', file))[0]!)[0]!.text).toBe('export const a = 1;\nexport const b = 2;\n');
  });

  test('prose stays out of the header: the caveat and the trace diagnosis are rows', async () => {
    const callers = await callTool(ctx, 'get_callers', { id: 'shout' });
    const sections = decodeGcx(encodeGcx('get_callers', callers));
    expect(sections.map((s) => s.name)).toEqual(['get_callers', 'get_callers.target', 'get_callers.caveat']);
    expect(gcxToObjects(sections[2]!)).toEqual([
      { class: 'coverage_incomplete', message: 'every returned row (1) is a name-only match; the real users may differ' },
    ]);
    const trace = (await callTool(ctx, 'trace_path', { from: 'formatLabel', to: 'main' })) as Q.TracePathResult;
    const diagnosis = decodeGcx(encodeGcx('trace_path', trace)).find((s) => s.name === 'trace_path.diagnosis')!;
    expect(gcxToObjects(diagnosis)[0]!.message).toBe(trace.diagnosis!.message);
    for (const s of decodeGcx(encodeGcx('trace_path', trace))) for (const v of Object.values(s.meta)) expect(v).not.toMatch(/\s/);
  });

  test('an id with a space goes to the .meta section instead of the header', async () => {
    const walk = (await callTool(ctx, 'walk_graph', { id: 'main', max_depth: 1 })) as Q.WalkGraphResult;
    const spaced = { ...walk, start: 'gcx app/src/render.ts::main' };
    const sections = decodeGcx(encodeGcx('walk_graph', spaced));
    expect(sections.map((s) => s.name)).toEqual(['walk_graph', 'walk_graph.edges', 'walk_graph.meta']);
    expect('start' in sections[0]!.meta).toBe(false);
    expect(gcxToObjects(sections[2]!)).toEqual([{ key: 'start', value: 'gcx app/src/render.ts::main' }]);
  });

  test('generic fallback on real engine outputs without a layout', () => {
    const generic = (tool: string, value: unknown): GcxSection => {
      const [section, ...rest] = decodeGcx(encodeGcx(tool, value));
      expect(rest).toEqual([]);
      expect(section!.name).toBe(tool);
      return section!;
    };
    const symbols = engine.fileSymbols(root, 'src/format.ts');
    const s = generic('file_symbols', symbols);
    const keys = [...new Set(symbols.flatMap((o) => Object.keys(o)))].sort();
    expect(s.fields).toEqual(keys.filter((k) => symbols.some((o) => cellText((o as unknown as Record<string, unknown>)[k]) !== '')));
    gcxToObjects(s).forEach((row, i) => {
      for (const k of keys) expect(row[k] ?? '').toBe(cellText((symbols[i] as unknown as Record<string, unknown>)[k]));
    });

    const status = engine.status(root);
    const st = gcxToObjects(generic('status', status))[0]!;
    for (const [k, v] of Object.entries(status)) expect(st[k] ?? '').toBe(cellText(v));

    const repos = engine.repos();
    expect(gcxToObjects(generic('repos', repos)).map((r) => r.name)).toEqual(repos.map((r) => r.name));
  });
});
