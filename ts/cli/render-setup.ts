/** Text of `gortex init`: per agent, each file and what happens to it; diffs on a dry run. */
import * as path from 'node:path';
import type { SetupPlan } from './agent-setup';

/** Lines of `after` that differ from `before`, as a small +/- listing (whole lines, no context). */
function lineDiff(before: string | null, after: string | null): string[] {
  const a = before === null ? [] : before.split('\n');
  const b = after === null ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [...a.slice(start, endA).map((l) => `      - ${l}`), ...b.slice(start, endB).map((l) => `      + ${l}`)];
}

/** The plan as text. */
export function renderSetup(plan: SetupPlan, options: { dryRun: boolean; remove: boolean }): string {
  const shown = (file: string) => (plan.root && file.startsWith(`${plan.root}${path.sep}`) ? path.relative(plan.root, file) : file);
  const verb: Record<string, string> = { create: 'create', update: 'update', unchanged: 'unchanged', restore: 'restore', delete: 'delete', strip: 'remove gortex from', absent: 'absent' };
  const lines = [`${options.dryRun ? 'Would ' : ''}${options.remove ? 'remove gortex from' : 'set up gortex in'} ${plan.scope === 'global' ? 'the user configuration' : plan.root}:`];
  for (const agent of plan.agents) {
    lines.push('', `${agent.name} (${agent.why})`);
    for (const c of plan.changes.filter((x) => x.agent === agent.id)) {
      lines.push(`  ${verb[c.action]!.padEnd(17)} ${shown(c.file)}  — ${c.what}`);
      if (options.dryRun && c.action !== 'unchanged' && c.action !== 'absent') lines.push(...lineDiff(c.before, c.after));
    }
  }
  if (plan.notes.length > 0) lines.push('', ...plan.notes.map((n) => `note: ${n}`));
  const changed = plan.changes.filter((c) => c.action !== 'unchanged' && c.action !== 'absent').length;
  lines.push('', changed === 0 ? 'Nothing to change.' : options.dryRun ? `${changed} change${changed === 1 ? '' : 's'} planned; run again without --dry-run to apply.` : `Done. ${options.remove ? '' : 'Restart the agents (or reload their MCP servers) to pick gortex up.'}`.trimEnd());
  return lines.join('\n');
}
