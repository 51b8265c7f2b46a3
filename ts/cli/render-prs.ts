/** Text renderings of the PR verbs (`gortex prs list|triage|risk|post`). */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** `list_prs` as one line per PR: number, state, CI, title, then its blockers. */
export function renderPrList(r: Json): string {
  if (r.prs.length === 0) return `no open PRs${r.repo ? ` in ${r.repo}` : ''}`;
  const lines = [`${r.total} open PR${r.total === 1 ? '' : 's'}${r.repo ? ` in ${r.repo}` : ''}: ${Object.entries(r.counts).map(([s, n]) => `${n} ${s}`).join(', ')}`];
  for (const p of r.prs) {
    lines.push(`#${p.number}  ${p.state.padEnd(17)} CI ${p.ci.rollup.padEnd(7)}  ${p.title}${p.author ? ` (@${p.author})` : ''}`);
    for (const b of p.blockers) lines.push(`      blocked: ${b.message}`);
  }
  return lines.join('\n');
}

/** `triage_prs` as a ranked table with each PR's top review priorities. */
export function renderTriage(r: Json): string {
  if (r.ranked.length === 0) return 'no open PRs to triage';
  const lines = [`review order (${r.order}):`];
  for (const p of r.ranked) {
    lines.push(`${String(p.rank).padStart(2)}. #${p.number}  ${p.level.padEnd(8)} ${String(p.score).padStart(3)}  ${p.title}  — ${p.changed.files} files, ${p.changed.symbols} symbols, ${p.dependents} dependents${p.graph_rank !== undefined ? ` (graph rank ${p.graph_rank})` : ''}`);
    if (p.rationale) lines.push(`       why: ${p.rationale}`);
    for (const q of p.top_priorities) lines.push(`       review ${q.id} (${q.file}:${q.line}, ${q.callers} callers)`);
  }
  if (r.llm && !r.llm.used) lines.push(`model not used: ${r.llm.error ?? r.llm.reason}`);
  return lines.join('\n');
}

/** `get_pr_impact` of one PR: level, axes, priorities and the affected surface. */
export function renderImpact(number: number, r: Json): string {
  const lines = [`PR #${number}: risk ${r.risk.level} ${r.risk.score} — ${r.changed.files} files, ${r.changed.symbols} symbols changed`];
  for (const a of r.risk.axes ?? []) lines.push(`  ${String(a.name ?? a.axis).padEnd(16)} ${String(a.score).padStart(3)}`);
  const priorities = (r.risk.review_priorities ?? []) as Json[];
  if (priorities.length > 0) lines.push('review first:', ...priorities.slice(0, 10).map((p) => `  ${p.id} (${p.file_path}:${p.start_line}, ${p.callers} callers)`));
  if (r.affected) {
    lines.push(`affected: ${r.affected.dependents} dependents in ${r.affected.caller_files.length} files, ${r.affected.test_files.length} test files`);
  }
  if (r.unknown?.length > 0) lines.push(`not in the graph: ${r.unknown.join(', ')}`);
  return lines.join('\n');
}

/** `post_review`'s answer: what was posted (or would be, with the payloads). */
export function renderPosted(r: Json): string {
  if (r.dry_run) {
    const lines = [`dry run: would post to ${r.repo} #${r.number} (${r.verdict}; ${r.anchored} inline, ${r.redacted} secret${r.redacted === 1 ? '' : 's'} redacted; visibility ${r.visibility})`];
    for (const q of r.requests) lines.push(`${q.method} ${q.path}`, JSON.stringify(q.body, null, 2));
    return lines.join('\n');
  }
  return `posted to ${r.repo} #${r.number}: ${r.verdict}${r.event ? ` (${r.event})` : ''}, ${r.anchored} inline comment${r.anchored === 1 ? '' : 's'}, ${r.outside_diff} in the summary, ${r.redacted} secret${r.redacted === 1 ? '' : 's'} redacted${r.url ? `\n${r.url}` : ''}`;
}
