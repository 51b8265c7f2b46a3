/**
 * The graph schema reference (`gortex://schema`): node kinds, type flavors, edge kinds and
 * provenance tiers with their meaning, id formats and caveat classes — tables written here,
 * counted from the repository's `graph_stats`. The `satisfies` clauses make a kind the engine
 * gains without a description here a type error.
 */
import type { EdgeKind, GraphStats, NodeKind, Origin, TypeFlavor } from '../../engine/engine';

/** What each node kind is. */
const NODE_KINDS = {
  file: 'a source file; id `<repo>/<path>`',
  package: 'a Go or Java package; id `<repo>/<dir>::<package>`',
  module:
    'a TypeScript namespace, a Rust `mod`, or an external module stub (`external::<module>`: imported by code, or a manifest dependency such as `external::express` or a Dockerfile base image `external::docker:<image>`)',
  function: 'a free function (test functions carry is_test, test_role, test_runner)',
  method: 'a function owned by a type; id `<repo>/<path>::<Owner>.<name>`',
  type: 'a class, struct, enum, record, type alias, union, annotation, proto message or service, SQL table or view, or Vue/Svelte component (see `flavor`)',
  interface: 'an interface or trait',
  field: 'a field or property of a type',
  constant: 'a module-level constant',
  variable: 'a module-level variable',
  enum_member: 'a member of an enum',
  import: 'an import binding',
  doc: 'a Markdown section: name is the heading slug, signature the heading, doc its first paragraph; nested by level',
  stage: 'a Dockerfile build stage (`FROM … AS name`, else `stage-N`)',
  script: 'a named command a project defines (package.json `scripts`)',
} satisfies Record<NodeKind, string>;

/** The flavors a `type` node comes in. */
const TYPE_FLAVORS = [
  'class',
  'struct',
  'enum',
  'record',
  'type_alias',
  'union',
  'annotation',
  'message',
  'service',
  'table',
  'view',
  'component',
  'mixin',
] satisfies TypeFlavor[];

/** What each edge kind links. */
const EDGE_KINDS = {
  defines: 'file → a symbol declared at its top level',
  contains: 'symbol → a symbol nested in it',
  member_of: 'method or field → the type that owns it',
  imports: 'file → the file, package or external module (and symbols) it imports',
  re_exports: 'file → what it re-exports',
  calls: 'caller → callee',
  references: 'symbol → a symbol it reads or passes as a value',
  instantiates: 'caller → the class it constructs',
  extends: 'type → its supertype (or interface → the interface it extends)',
  implements: 'type → an interface it implements',
  overrides: 'method → the supertype method it overrides (derived by find_overrides / get_class_hierarchy, never stored)',
  typed_as: 'symbol → the type it is declared with (parameter, field, variable)',
  returns: 'function → its declared return type',
  tests: 'test symbol → the non-test symbol it calls (emitted beside the calls edge)',
  depends_on_module:
    'package manifest (package.json, Cargo.toml, go.mod, pyproject.toml, requirements*.txt) or Dockerfile → a module it declares as a dependency',
} satisfies Record<EdgeKind, string>;

/** The provenance tiers, strongest first, and whether anything produces them yet. */
const TIERS = [
  { origin: 'lsp_resolved', rank: 6, meaning: 'a language server confirmed the target', produced: false },
  { origin: 'lsp_dispatch', rank: 5, meaning: 'a language server resolved an interface dispatch', produced: false },
  { origin: 'ast_resolved', rank: 4, meaning: 'unique structural target: same file, import evidence, same package, declared or constructed type', produced: true },
  { origin: 'ast_inferred', rank: 3, meaning: "receiver type inferred from a called function's declared return type", produced: true },
  { origin: 'text_matched', rank: 2, meaning: 'name only: the single same-language candidate of that name', produced: true },
  { origin: 'speculative', rank: 1, meaning: 'dynamic-dispatch best guess, hidden unless asked for', produced: false },
] satisfies { origin: Origin; rank: number; meaning: string; produced: boolean }[];


/** The schema reference with the counts of `stats` (a `graph_stats` answer). */
export function schema(stats: GraphStats): unknown {
  const known = <K extends string>(table: Record<K, string>, counts: Record<string, number>, key: string) => [
    ...Object.entries<string>(table).map(([kind, description]) => ({ [key]: kind, description, count: counts[kind] ?? 0 })),
    // A kind the engine reports that this table does not know yet is still shown, undescribed.
    ...Object.keys(counts)
      .filter((k) => !(k in table))
      .map((kind) => ({ [key]: kind, description: null, count: counts[kind] })),
  ];
  return {
    ids: {
      symbol: '<repo>/<path>::<Owner>.<name>',
      file: '<repo>/<path>',
      package: '<repo>/<dir>::<package>',
      repeated_name: '<id>_L<line> when the same qualified name is declared again in a file',
      external: 'external::<module>[.<member>]',
      unresolved: 'unresolved::<name> or unresolved::*.<name> (placeholders, not nodes you can query)',
    },
    node_kinds: known(NODE_KINDS, stats.nodes_by_kind, 'kind'),
    type_flavors: TYPE_FLAVORS,
    edge_kinds: known(EDGE_KINDS, stats.edges_by_kind, 'kind'),
    usage_edge_kinds: ['calls', 'references', 'instantiates', 'implements', 'extends', 'typed_as', 'returns', 'tests'],
    tiers: TIERS.map((t) => ({ ...t, count: stats.edges_by_origin[t.origin] ?? 0 })),
    tier_rule:
      'without min_tier, name-only (text_matched) rows are dropped when the result holds ast_inferred-or-better rows (reported as name_only_suppressed); with min_tier, weaker rows are dropped and tier_filtered reports them',
    caveats: {
      likely_unused: 'indexed normally, but no usage edge points at it',
      possible_extraction_gap: 'no edges at all: the extractor probably missed it',
      coverage_incomplete: 'the only evidence is import-level, unresolved same-name references or name-only matches',
    },
    usage_contexts: ['call', 'parameter_type', 'field', 'type', 'return_type', 'value', 'import'],
    unresolved_references: stats.unresolved,
  };
}
