/**
 * Readable, plain-text renderings of the analyses for the CLI (`gortex clones`, `gortex analyze`);
 * `--json` prints the engine's payload unchanged instead.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { formatCount } from './format';

type Json = Record<string, any>;

/** `path:line-end` of a node summary. */
function span(n: Json): string {
  if (!n.line) return n.path || '(external)';
  return n.end_line && n.end_line !== n.line ? `${n.path}:${n.line}-${n.end_line}` : `${n.path}:${n.line}`;
}

/** `gortex clones`. */
export function renderClones(r: Json): string {
  const clusters: Json[] = r.clusters ?? [];
  const lines: string[] = [];
  for (const c of clusters) {
    const sim = c.min_similarity === c.max_similarity ? c.max_similarity.toFixed(3) : `${c.min_similarity.toFixed(3)}–${c.max_similarity.toFixed(3)}`;
    lines.push(`Cluster ${c.id}: ${c.size} bodies, similarity ${sim}`);
    for (const m of c.members as Json[]) {
      lines.push(`  ${String(m.kind).padEnd(8)} ${m.qualified}  ${span(m)}  (${m.tokens} tokens)${m.dead ? '  [dead]' : ''}`);
    }
    if (c.size > c.members.length) lines.push(`  … ${formatCount(c.size - c.members.length)} more members (--json lists the first ${c.members.length})`);
    lines.push('');
  }
  if (clusters.length === 0) lines.push(`No clones at similarity ≥ ${r.min_similarity}.`, '');
  lines.push(
    `${formatCount(r.clusters_total)} clusters from ${formatCount(r.verified_pairs)} verified pairs; ${formatCount(r.eligible)} of ${formatCount(r.bodies)} bodies compared` +
      (r.tests_excluded ? ` (${formatCount(r.tests_excluded)} test bodies left out; --include-tests compares them)` : ''),
  );
  if (r.truncated) lines.push(`… showing ${clusters.length}; raise --limit to see more`);
  for (const note of r.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}
