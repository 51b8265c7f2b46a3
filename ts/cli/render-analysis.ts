/**
 * Readable, plain-text renderings of the analyses for the CLI (`gortex clones`, `gortex analyze`);
 * `--json` prints the engine's payload unchanged instead.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { formatCount } from '../support/format';
import { HISTORY_RENDERERS } from './render-history';
import { at, more, table } from './render-table';

type Json = Record<string, any>;

/** `path:line-end` of a node summary. */
function span(n: Json): string {
  if (!n.start_line) return n.file_path || '(external)';
  return n.end_line && n.end_line !== n.start_line ? `${n.file_path}:${n.start_line}-${n.end_line}` : `${n.file_path}:${n.start_line}`;
}

/** `gortex clones`. */
export function renderClones(r: Json): string {
  const clusters: Json[] = r.clusters ?? [];
  const lines: string[] = [];
  for (const c of clusters) {
    const sim = c.min_similarity === c.max_similarity ? c.max_similarity.toFixed(3) : `${c.min_similarity.toFixed(3)}–${c.max_similarity.toFixed(3)}`;
    lines.push(`Cluster ${c.id}: ${c.size} bodies, similarity ${sim}`);
    for (const m of c.members as Json[]) {
      lines.push(`  ${String(m.kind).padEnd(8)} ${m.qual_name}  ${span(m)}  (${m.tokens} tokens)${m.dead ? '  [dead]' : ''}`);
    }
    if (c.size > c.members.length) lines.push(`  … ${formatCount(c.size - c.members.length)} more members (--json lists the first ${c.members.length})`);
    lines.push('');
  }
  if (clusters.length === 0) lines.push(`No clones at similarity ≥ ${r.min_similarity}.`, '');
  lines.push(
    `${formatCount(r.clusters_total)} clusters from ${formatCount(r.verified_pairs)} verified pairs; ${formatCount(r.eligible)} of ${formatCount(r.bodies)} bodies compared`,
  );
  if (r.truncated) lines.push(`… showing ${clusters.length}; raise --limit to see more`);
  for (const note of r.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}

function counts(map: Record<string, number> | undefined): string {
  return Object.entries(map ?? {})
    .map(([k, n]) => `${k} ${formatCount(n)}`)
    .join(' · ');
}

/** One renderer per `analyze` kind; kinds without one print their JSON. */
const RENDERERS: Record<string, (r: Json) => string[]> = {
  dead_code: (r) => [
    ...table((r.dead as Json[]).map((d) => [d.confidence, String(d.symbol.kind), d.symbol.qual_name, at(d.symbol), d.reason])),
    ...more(r.dead.length, r.total),
    `${formatCount(r.total)} dead (${counts(r.by_confidence)})`,
    `note: ${r.blind_spots}`,
  ],
  hotspots: (r) => [
    ...table([
      ['score', 'fan-in', 'fan-out', 'crossings', 'symbol', 'at'],
      ...(r.hotspots as Json[]).map((h) => [String(h.score), String(h.fan_in), String(h.fan_out), String(h.crossings), h.node.qual_name, at(h.node)]),
    ]),
    ...more(r.hotspots.length, r.total),
    `threshold ${r.threshold} (mean ${r.mean}, σ ${r.stddev}) over ${formatCount(r.candidates)} functions and methods`,
  ],
  cycles: (r) => [
    ...(r.cycles as Json[]).flatMap((c) => [
      `${c.severity} ${c.kind} cycle of ${c.size}: ${[...(c.path as Json[]).map((s) => `${s.path}:${s.line}`), c.path[0]?.path ?? ''].join(' → ')}`,
    ]),
    ...more(r.cycles.length, r.total),
    r.total === 0 ? 'No cycles.' : `${formatCount(r.total)} cycles (${counts(r.by_kind)}; ${counts(r.by_severity)})`,
  ],
  would_create_cycle: (r) => [
    r.would_create_cycle
      ? `yes: ${r.from.qual_name} → ${r.to.qual_name} would close ${(r.path as Json[]).map((s) => `${s.path}:${s.line}`).join(' → ')}`
      : `no: ${r.from.qual_name} → ${r.to.qual_name} closes no ${r.edge} cycle`,
    ...(r.note ? [`note: ${r.note}`] : []),
  ],
  impact: (r) => [
    ...table([
      ['score', 'depth', 'symbol', 'at'],
      ...(r.rows as Json[]).map((x) => [String(x.score), x.depth === undefined ? '' : String(x.depth), x.node.qual_name, at(x.node)]),
    ]),
    ...more(r.rows.length, r.total),
    ...(r.note ? [`note: ${r.note}`] : []),
  ],
  clusters: (r) => [
    ...table((r.communities as Json[]).map((c) => [`#${c.id}`, c.label, `${c.size} symbols`, `cohesion ${c.cohesion}`])),
    ...more(r.communities.length, r.total),
    `${r.algorithm}: ${formatCount(r.count)} communities, modularity ${r.modularity}`,
  ],
  coverage_gaps: (r) => [
    ...table((r.symbols as Json[]).map((x) => [`fan-in ${x.fan_in}`, String(x.kind), x.qual_name, at(x)])),
    ...more(r.symbols.length, r.total),
    `${formatCount(r.total)} of ${formatCount(r.examined)} functions and methods untested (${Math.round(r.tested_ratio * 100)} % reached by a test)`,
  ],
  coverage: (r) => [
    ...table((r.symbols as Json[]).map((x) => [`${x.percent.toFixed(1)} %`, `${x.covered}/${x.lines} lines`, String(x.kind), x.qual_name, at(x), x.stale ? 'stale' : ''])),
    ...more(r.symbols.length, r.total),
    `${formatCount(r.uncovered)} of ${formatCount(r.measured)} measured functions and methods never executed`,
    ...reportLines(r.reports),
  ],
  coverage_summary: (r) => [
    ...table((r.groups as Json[]).map((g) => [`${g.percent.toFixed(1)} %`, `${g.covered}/${g.lines} lines`, `${g.functions_uncovered}/${g.functions} functions never run`, g.path])),
    `total ${r.percent.toFixed(1)} % of ${formatCount(r.lines)} lines in ${formatCount(r.files)} files; ${formatCount(r.functions_covered)} of ${formatCount(r.functions)} functions executed`,
    ...reportLines(r.reports),
  ],
  external_calls: (r) => [
    ...table((r.targets as Json[]).map((t) => [`${t.uses} uses`, `${t.callers} callers`, t.module ? `${t.module}.${t.name}` : t.name])),
    ...more(r.targets.length, r.total),
  ],
  routes: (r) => [
    ...table((r.routes as Json[]).map((x) => [x.method, x.route, x.framework, `${x.path}:${x.line}`, x.handler ? x.handler.qual_name : ''])),
    ...more(r.routes.length, r.total),
  ],
  env_var_users: (r) => [
    ...table((r.variables as Json[]).map((v) => [v.name, `${v.reads} reads`, `${v.files} files`])),
    ...more(r.variables.length, r.total_variables),
  ],
  todos: (r) => [
    ...(r.todos as Json[]).map((t) => `${t.path}:${t.line}: ${t.tag}${t.assignee ? `(${t.assignee})` : ''} ${t.text}`),
    ...more(r.todos.length, r.total),
    `${formatCount(r.total)} markers (${counts(r.by_tag)})`,
  ],
  health_score: (r) => [
    `health ${r.score} (${r.grade})`,
    ...table((r.components as Json[]).map((c) => [c.name, String(c.score), `weight ${c.weight}`])),
    ...(r.left_out as string[] | undefined ?? []).map((l) => `left out: ${l}`),
  ],
  connectivity_health: (r) => [
    `${formatCount(r.effective_nodes)} of ${formatCount(r.nominal_nodes)} nodes linked (${(r.effective_ratio * 100).toFixed(1)} %): ${formatCount(r.isolated)} isolated, ${formatCount(r.leaf)} leaves, ${formatCount(r.source_only)} source-only, ${formatCount(r.sink_only)} sink-only`,
    ...table((r.dead_weight_by_file as Json[]).map((f) => [`${f.dead_weight} dead weight`, `${f.isolated} isolated`, `${f.leaf} leaves`, f.file_path])),
    ...more(r.dead_weight_by_file.length, r.files_total),
    `${formatCount(r.components.count)} components; the largest holds ${formatCount(r.components.largest_nodes)} nodes (${(r.components.largest_share * 100).toFixed(1)} %)`,
    ...(r.components.islands as Json[]).map((i) => `  island of ${i.nodes} nodes: ${(i.files as string[]).join(', ')}${i.file_count > i.files.length ? ` … ${i.file_count} files` : ''}`),
    ...more(r.components.islands.length, r.components.islands_total),
    `note: ${r.note}`,
  ],
  edge_audit: (r) => [
    `${formatCount(r.summary.total_edges)} edges, ${formatCount(r.summary.call_edges)} calls: ${r.summary.high_confidence_call_pct} % on strong evidence; ${r.summary.call_resolution_pct} % of call sites bound (${formatCount(r.summary.unresolved_calls)} unresolved); ${formatCount(r.summary.external_usage_edges)} uses leave the repository`,
    ...table((r.by_kind as Json[]).map((k) => [k.kind, formatCount(k.edges), (k.tiers as Json[]).map((t) => `${t.origin} ${formatCount(t.edges)}`).join(' · ')])),
    ...bucket('unimplemented interfaces', r.unimplemented_interfaces, (n) => `${n.qual_name}  ${at(n)}`),
    ...bucket('functions only tests call', r.test_only_targets, (n) => `${n.qual_name}  ${at(n)}`),
    ...bucket('calls bound by name alone', r.weak_call_edges, (e) => `${e.from.qual_name} → ${e.to.qual_name}  ${e.from.file_path}:${e.line} (${e.origin})`),
  ],
  resolution_outcomes: (r) => [
    `${formatCount(r.total)} unresolved references: ${(r.by_reason as Json[]).map((x) => `${x.reason} ${formatCount(x.count)}`).join(' · ')}`,
    ...table((r.rows as Json[]).map((x) => [x.reason, x.name, `${x.from.file_path}:${x.line}`, x.from.qual_name])),
    ...more(r.rows.length, r.matching),
    'most often unresolved:',
    ...table((r.top_names as Json[]).map((x) => [`  ${formatCount(x.count)}×`, x.name, x.reason])),
  ],
  tests_as_edges: (r) => [
    ...(r.rows as Json[]).map((x) => `${x.node.qual_name}  ${at(x.node)}  ${x.edge_count} edges ${x.tests ? '← tested by' : '→ covers'} ${((x.tests ?? x.covers) as Json[]).map((t) => t.qual_name).join(', ')}`),
    ...more(r.rows.length, r.total),
    `${formatCount(r.summary.test_edges)} tests edges: ${formatCount(r.summary.test_functions)} tests cover ${formatCount(r.summary.tested_symbols)} symbols`,
  ],
  synthesizers: (r) => [
    ...(r.passes as Json[]).flatMap((p) => [
      `${p.pass}: ${formatCount(p.edges)} edges to ${formatCount(p.targets)} targets (${counts(p.by_origin)})`,
      ...(p.samples as Json[]).map((e) => `  ${e.from.qual_name} -${e.kind}-> ${e.to.qual_name}  ${e.path}:${e.line}`),
    ]),
    `${formatCount(r.total)} synthesized edges; passes: ${(r.available as string[]).join(', ')}`,
  ],
  annotation_users: (r) => [
    ...(r.annotations as Json[]).map((a) => `${a.annotation}: ${a.count} symbols (${counts(a.by_kind)}) — ${(a.symbols as Json[]).map((s) => s.qual_name).join(', ')}${a.count > a.symbols.length ? ', …' : ''}`),
    ...more(r.annotations.length, r.total),
    `${formatCount(r.annotated_symbols)} annotated symbols`,
  ],
  log_events: (r) => [
    ...table((r.events as Json[]).map((e) => [e.level, `${e.count}×`, e.message, (e.sites as Json[]).map((x) => `${x.path}:${x.line}`).join(', ')])),
    ...more(r.events.length, r.total),
    `log calls by level: ${counts(r.by_level)}`,
    ...sweepNotes(r),
  ],
  event_emitters: (r) => [
    ...table((r.events as Json[]).map((e) => [e.event, `${e.emits} emit`, `${e.listens} listen`, e.emits === 0 ? 'never emitted here' : e.listens === 0 ? 'no listener here' : ''])),
    ...more(r.events.length, r.total),
    `${formatCount(r.emitted_only)} emitted with no listener; ${formatCount(r.listened_only)} listened for and never emitted here`,
    ...sweepNotes(r),
  ],
  cross_repo: (r) => [
    ...table((r.dependencies as Json[]).map((d) => [`${d.from_repo} → ${d.to_repo}`, d.kind, `${d.count}×`, (d.samples as string[])[0] ?? ''])),
    ...more(r.dependencies.length, r.total),
    ...(r.note ? [`note: ${r.note}`] : [`${formatCount(r.references)} references across ${formatCount(r.repos.length)} repositories`]),
  ],
  string_emitters: (r) => [
    ...table((r.strings as Json[]).map((x) => [x.context, `${x.emits}×`, x.value, (x.via as string[]).join(', '), (x.sites as Json[]).map((s) => `${s.path}:${s.line}`).join(', ')])),
    ...more(r.strings.length, r.total),
    `distinct strings by context: ${counts(r.by_context)}`,
    ...sweepNotes(r),
  ],
  named: (r) =>
    r.query === undefined
      ? [...table((r.queries as Json[]).map((q) => [q.name, q.source, q.description, (q.detectors as string[]).join(', ')])), `${formatCount(r.total)} bundles; run one with --arg name=…`]
      : [
          ...table((r.matches as Json[]).map((m) => [m.severity, m.detector, `${m.path}:${m.line}`, m.message])),
          ...more(r.matches.length, r.total),
          `${r.query}: ${formatCount(r.total)} matches from ${(r.detectors as string[]).join(', ')} over ${formatCount(r.files_searched)} files`,
        ],
  sql_call_sites: (r) => [
    ...table((r.sites as Json[]).map((x) => [x.verb, (x.tables as string[]).join(', '), `${x.path}:${x.line}`, x.function?.qual_name ?? '', x.sql])),
    ...more(r.sites.length, r.total),
    `${formatCount(r.total)} SQL strings (${counts(r.by_verb)})`,
    ...sweepNotes(r),
  ],
  unreferenced_tables: (r) => [
    ...(r.tables as Json[]).map((t) => `${t.table.name}  ${at(t.table)}${t.views.length > 0 ? `  (read only by views: ${(t.views as string[]).join(', ')})` : ''}`),
    ...more(r.tables.length, r.total),
    `${formatCount(r.total)} of ${formatCount(r.defined)} defined tables no SQL in code reads or writes`,
    ...sweepNotes(r),
  ],
  orphan_tables: (r) => [
    ...(r.tables as Json[]).map((t) => `${t.table}: ${t.uses} uses, e.g. ${(t.sites as Json[]).slice(0, 3).map((x) => `${x.path}:${x.line}`).join(', ')}`),
    ...more(r.tables.length, r.total),
    r.defined === 0 ? 'note: no table definitions found (no CREATE TABLE in .sql files or in code): every table code uses is listed' : `${formatCount(r.total)} tables used by code and defined nowhere (${formatCount(r.defined)} defined)`,
    ...sweepNotes(r),
  ],
  sql_rebuild: (r) => [
    `${formatCount(r.sql_strings)} SQL strings of ${formatCount(r.strings_visited)} literals beginning like SQL (${formatCount(r.not_sql)} not SQL): ${counts(r.by_verb)}`,
    `${formatCount(r.tables_defined)} tables defined, ${formatCount(r.tables_used)} used by code; ${formatCount(r.links)} function-table links (${formatCount(r.reads)} reads, ${formatCount(r.writes)} writes) from ${formatCount(r.emitters)} functions`,
    `${formatCount(r.orphan_tables)} orphan tables, ${formatCount(r.unreferenced_tables)} unreferenced`,
    ...sweepNotes(r),
  ],
  dbt_models: (r) => [
    ...table((r.models as Json[]).map((m) => [m.name, m.materialized ?? '', `${m.path}`, m.refs.length > 0 ? `refs ${(m.refs as string[]).join(', ')}` : '', m.sources.length > 0 ? `sources ${(m.sources as string[]).join(', ')}` : '', `read by ${m.referenced_by.length}`, m.documented ? '' : 'undocumented'])),
    ...more(r.models.length, r.total),
    ...(r.problems as Json[]).map((p) => `${p.kind}: ${p.model} (${p.path}:${p.line}) → ${p.name}`),
    `${formatCount(r.total)} models in ${formatCount(r.projects.length)} projects; ${formatCount(r.problems.length)} problems; leaves: ${(r.leaves as string[]).join(', ') || 'none'}`,
    ...infraNotes(r),
  ],
  k8s_resources: (r) => [
    ...table((r.resources as Json[]).map((x) => [x.kind, x.namespace ? `${x.namespace}/${x.name ?? '?'}` : x.name ?? '(no name)', x.api_version, `${x.path}:${x.line}`])),
    ...more(r.resources.length, r.total),
    `${formatCount(r.total)} objects (${counts(r.by_kind)})`,
    ...infraNotes(r),
  ],
  images: (r) => [
    ...table((r.images as Json[]).map((i) => [i.image, (i.tags as string[]).join(', ') || '(no tag)', i.unpinned ? 'UNPINNED' : '', (i.uses as Json[]).map((u) => `${u.path}:${u.line}`).join(', ')])),
    ...more(r.images.length, r.total),
    `${formatCount(r.total)} images, ${formatCount(r.unpinned)} unpinned (no tag or digest, or latest)`,
    ...infraNotes(r),
  ],
  kustomize: (r) => [
    ...(r.kustomizations as Json[]).flatMap((k) => [
      `${k.path}${k.namespace ? ` (namespace ${k.namespace})` : ''}: ${k.resources.length} resources, ${k.bases.length} bases, ${k.components.length} components, ${k.patches.length} patches, ${k.images.length} image overrides`,
      ...(k.missing as string[]).map((m) => `  missing: ${m}`),
    ]),
    ...more(r.kustomizations.length, r.total),
    `${formatCount(r.total)} kustomizations, ${formatCount(r.broken)} listing a missing path`,
    ...infraNotes(r),
  ],
  error_surface: (r) => r.symbol
    ? [
        `${r.symbol.qual_name} can surface ${formatCount(r.total)} errors:`,
        ...table((r.surfaced as Json[]).map((e) => [e.error, e.depth === 0 ? 'raised here' : `${e.depth} calls deep`, `${e.path}:${e.line}`, (e.via as string[]).join(' → ')])),
        ...more(r.surfaced.length, r.total),
        ...sweepNotes(r),
      ]
    : [
        ...(r.raisers as Json[]).map((x) => `${x.function.qual_name}  ${at(x.function)}: ${(x.errors as string[]).join(', ')}`),
        ...more(r.raisers.length, r.total),
        ...sweepNotes(r),
      ],
  models: (r) => [
    ...table((r.models as Json[]).map((m) => [m.framework, m.model.qual_name, at(m.model), m.evidence, `${m.fields.length} fields`])),
    ...more(r.models.length, r.total),
    `${formatCount(r.total)} models (${counts(r.by_framework)})`,
  ],
  domain: (r) => [
    ...(r.domains as Json[]).flatMap((d) => [
      `${d.domain}: ${formatCount(d.types)} types in ${(d.directories as string[]).join(', ')} — ${Object.entries(d.roles as Record<string, string[]>).map(([role, names]) => `${role} ${names.join(', ')}`).join('; ')}`,
      ...(d.depends_on.length > 0 ? [`  depends on ${(d.depends_on as Json[]).map((l) => `${l.domain} (${l.edges})`).join(', ')}`] : []),
      ...(d.used_by.length > 0 ? [`  used by ${(d.used_by as Json[]).map((l) => `${l.domain} (${l.edges})`).join(', ')}`] : []),
    ]),
    ...more(r.domains.length, r.total),
    `${formatCount(r.total)} domains over ${formatCount(r.types)} types (${formatCount(r.unassigned)} unassigned)`,
  ],
  components: (r) => [
    ...table((r.components as Json[]).map((c) => [c.framework, c.component.qual_name, at(c.component), `rendered by ${c.rendered_by}`, `used by ${c.used_by}`, c.renders.length > 0 ? `renders ${(c.renders as string[]).map((id) => id.slice(id.lastIndexOf('::') + 2)).join(', ')}` : ''])),
    ...more(r.components.length, r.total),
    `${formatCount(r.total)} UI components (${counts(r.by_framework)}); ${formatCount(r.unused_count)} used by nothing${r.unused_count > 0 ? `: ${(r.unused as string[]).join(', ')}${r.unused_count > r.unused.length ? ', …' : ''}` : ''}`,
  ],
  config_readers: (r) => [
    ...table((r.keys as Json[]).map((k) => [k.key, `${k.reads} reads`, (k.sites as Json[]).map((x) => `${x.path}:${x.line}`).join(', ')])),
    ...more(r.keys.length, r.total),
    ...sweepNotes(r),
  ],
  pubsub: (r) => [
    ...(r.topics as Json[]).map((t) => `${t.topic} [${t.status}]: published at ${(t.publishers as Json[]).map((x) => `${x.path}:${x.line}`).join(', ') || '—'}; subscribed at ${(t.subscribers as Json[]).map((x) => `${x.path}:${x.line}`).join(', ') || '—'}`),
    ...more(r.topics.length, r.total),
    `${formatCount(r.total)} topics; ${formatCount(r.publish_only)} published only, ${formatCount(r.subscribe_only)} subscribed only`,
  ],
  goroutine_spawns: (r) => [
    ...table((r.spawns as Json[]).map((x) => [x.mechanism, x.callee, `${x.path}:${x.line}`, x.function?.qual_name ?? '', x.in_loop ? 'in a loop' : '', x.target ? `→ ${x.target.qual_name}` : ''])),
    ...more(r.spawns.length, r.total),
    `${formatCount(r.total)} spawn sites in ${formatCount(r.functions)} functions (${counts(r.by_mechanism)}); ${formatCount(r.in_loops)} in loops`,
    ...sweepNotes(r),
  ],
  channel_ops: (r) => [
    ...table([
      ['channel', 'in', 'make', 'send', 'receive', 'range', 'close'],
      ...(r.channels as Json[]).map((c) => [c.channel, c.function ? c.function.qual_name : 'field', ...['makes', 'sends', 'receives', 'ranges', 'closes'].map((k) => String(c[k]))]),
    ]),
    ...more(r.channels.length, r.total),
    ...sweepNotes(r),
  ],
  unclosed_channels: (r) => [
    ...(r.channels as Json[]).map((c) => `${c.risk}  ${c.channel} (${c.function ? c.function.qual_name : 'field'}): made at ${(c.sites as Json[]).filter((x) => x.op === 'make').map((x) => `${x.path}:${x.line}`).join(', ')}; ${c.sends} sends, ${c.ranges} range loops, never closed`),
    ...more(r.channels.length, r.total),
    `${formatCount(r.total)} never closed; ${formatCount(r.closed)} closed; ${formatCount(r.escaping)} passed on or returned (left out)`,
    ...sweepNotes(r),
  ],
  race_writes: (r) => [
    ...table((r.writes as Json[]).map((w) => [w.guarded ? 'guarded' : 'UNGUARDED', w.target, w.shared, `${w.path}:${w.line}`, w.function?.qual_name ?? ''])),
    ...more(r.writes.length, r.total),
    `${formatCount(r.total)} shared writes in ${formatCount(r.goroutines)} goroutine literals; ${formatCount(r.unguarded)} without a lock or atomic`,
    ...sweepNotes(r),
  ],
  field_writers: (r) => [
    ...(r.fields as Json[]).map((f) => `${f.field}: ${f.writes} writes (${f.outside_constructors} outside constructors) by ${(f.writers as Json[]).map((w) => `${w.function.qual_name} ×${w.writes}`).join(', ')}${f.top_level ? `, ${f.top_level} at file level` : ''}`),
    ...more(r.fields.length, r.total),
    ...sweepNotes(r),
  ],
  unsafe_patterns: (r) => [
    ...table((r.sites as Json[]).map((x) => [x.pattern, `${x.path}:${x.line}`, x.symbol?.qual_name ?? '', x.text])),
    ...more(r.sites.length, r.total),
    `${formatCount(r.total)} sites in ${formatCount(r.files)} files (${counts(r.by_pattern)})`,
    ...sweepNotes(r),
  ],
  cgo_users: (r) => interopLines(r),
  wasm_users: (r) => interopLines(r),
  kinds: (r) => table((r.kinds as Json[]).map((k) => [k.kind, k.description])),
  ...HISTORY_RENDERERS,
};
RENDERERS.untested = RENDERERS.coverage_gaps!;

/** A sampled bucket of `edge_audit`: its count, then its sampled rows. */
function bucket(title: string, b: Json, line: (row: Json) => string): string[] {
  return [`${title}: ${formatCount(b.count)}`, ...(b.sample as Json[]).map((x) => `  ${line(x)}`), ...(b.truncated ? [`  … raise --limit to sample more`] : [])];
}

/** What an AST sweep skipped or cut short. */
function sweepNotes(r: Json): string[] {
  return [...((r.skipped as string[] | undefined) ?? []).map((x) => `skipped: ${x}`), ...(r.timed_out ? ['note: the sweep hit its deadline; later files were not searched'] : [])];
}

/** What an infrastructure scan could not read. */
function infraNotes(r: Json): string[] {
  return ((r.skipped as string[] | undefined) ?? []).map((x) => `skipped: ${x}`);
}

/** `cgo_users` and `wasm_users`: a file per line with how it crosses and what it uses. */
function interopLines(r: Json): string[] {
  return [
    ...table((r.files as Json[]).map((f) => [f.path, (f.via as string[]).join(', '), `${f.uses} uses`, (f.names as string[]).join(', ')])),
    ...more(r.files.length, r.total),
    ...(r.total === 0 ? ['No files.'] : []),
    ...sweepNotes(r),
  ];
}

/** The coverage reports read, one line each. */
function reportLines(reports: Json[]): string[] {
  return reports.map((x) => `  from ${x.path} (${x.format}): ${x.matched} of ${x.files} files matched${x.stale_files > 0 ? `, ${x.stale_files} changed since it was written` : ''}`);
}

/** `gortex analyze --kind K`. */
export function renderAnalysis(kind: string, result: Json): string {
  const render = RENDERERS[kind];
  return render ? render(result).join('\n') : JSON.stringify(result, null, 2);
}

/** One flow node: `name (kind in function, path:line)`. */
function flowNode(n: Json): string {
  const what = n.kind === 'argument' ? `argument ${n.arg} of ${n.name}()` : n.kind === 'result' ? `result of ${n.name}()` : n.kind === 'return' ? 'return value' : `${n.kind} ${n.name}`;
  return `${what} in ${n.function} (${n.path}:${n.line})`;
}

/** A path as an indented chain of hops. */
function flowPath(p: Json): string[] {
  return [
    `  ${flowNode(p.source)}`,
    ...(p.hops as Json[]).map((h) => `    —${h.kind} ${h.confidence}→ ${flowNode(h.to)}`),
  ];
}

/** `gortex flow`. */
export function renderFlow(r: Json): string {
  const paths: Json[] = r.paths ?? [];
  if (paths.length === 0) return `No dataflow path. ${r.diagnosis ?? ''}`.trim();
  const lines = paths.flatMap((p, i) => [`Path ${i + 1}: ${p.length} hops, confidence ${p.confidence}`, ...flowPath(p), '']);
  if (r.truncated) lines.push('… more paths exist; raise --max-paths to see them');
  lines.push('(flow-insensitive: a path means the value can travel there, not that it does on every run)');
  return lines.join('\n');
}

/** `gortex taint`. */
export function renderTaint(r: Json): string {
  const findings: Json[] = r.findings ?? [];
  const lines = findings.flatMap((f, i) => [
    `Finding ${i + 1}${f.category ? ` [${f.category}]` : ''}: ${f.source.name} → ${f.sink.name}() in ${f.sink.function} (${f.sink.path}:${f.sink.line}), confidence ${f.confidence}`,
    ...flowPath(f),
    '',
  ]);
  if (findings.length === 0) lines.push('No source reaches a sink.');
  lines.push(
    `${formatCount(r.total)} findings from ${formatCount(r.sources)} sources (${r.source_set}) and ${formatCount(r.sinks)} sinks (${r.sink_set})` +
      (r.candidates_capped ? '; a side had more than 100 candidates and was capped' : ''),
  );
  if (r.truncated) lines.push('… raise --limit to see more');
  return lines.join('\n');
}

/** `contracts`: a table of contracts, or (check) the issues by severity. */
export function renderContracts(r: Json): string {
  const repos = `across ${r.repos.join(', ')}`;
  if (r.issues) {
    if (r.issues.length === 0) return `No contract issues ${repos}.`;
    const s = r.summary;
    return [
      `${s.total} contract issue${s.total === 1 ? '' : 's'} ${repos}: ${s.breaking} breaking, ${s.warning} warning, ${s.info} info`,
      '',
      ...r.issues.map((i: Json) => `${i.severity.padEnd(8)}  ${i.kind.padEnd(15)}  ${i.details}`),
    ].join('\n');
  }
  if (r.contracts.length === 0) return `No contracts found ${repos}.`;
  const side = (c: Json, role: string) => [...new Set(c.locations.filter((l: Json) => l.role === role).map((l: Json) => `${l.repo_prefix}:${l.file_path}:${l.line}`))].join(' ') || '—';
  const rows = r.contracts.map((c: Json) => [c.type, c.status, c.id, side(c, 'provider'), side(c, 'consumer')]);
  return [`${r.total} contract${r.total === 1 ? '' : 's'} ${repos}`, '', ...table([['type', 'status', 'contract', 'provided at', 'consumed at'], ...rows]), ...more(r.contracts.length, r.total)].join('\n');
}
