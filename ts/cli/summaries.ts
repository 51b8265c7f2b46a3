/** Human-readable summaries of index and status reports. */
import type { IndexReport, ParseFailure, SkippedFile, StatusReport } from '../engine/types';
import { formatBytes, formatCount, formatCounts, formatDuration, listSome, sortedCounts } from '../support/format';

const LIST_LIMIT = 5;

function skippedLines(skipped: readonly SkippedFile[], byReason: Record<string, number>): string[] {
  const total = Object.values(byReason).reduce((sum, n) => sum + n, 0) || skipped.length;
  if (total === 0) return ['Skipped      none'];
  return [
    `Skipped      ${formatCount(total)} files: ${formatCounts(byReason)}`,
    ...listSome(skipped, LIST_LIMIT, (s) => `${s.path} (${s.reason}${s.detail ? `: ${s.detail}` : ''})`),
  ];
}

function failureLines(failures: readonly ParseFailure[]): string[] {
  if (failures.length === 0) return ['Failures     none'];
  return [
    `Failures     ${formatCount(failures.length)} files could not be parsed`,
    ...listSome(failures, LIST_LIMIT, (f) => `${f.path}: ${f.error}`),
  ];
}

/** The summary `gortex index` prints. */
export function formatIndexSummary(report: IndexReport, peakRssBytes: number): string {
  const { files } = report;
  const modeText =
    report.mode === 'cold'
      ? `cold index${report.snapshot.rebuilt_reason ? ` (${report.snapshot.rebuilt_reason})` : ''}`
      : report.mode === 'incremental'
        ? `incremental: ${formatCount(files.parsed)} parsed, ${formatCount(files.reused)} reused, ${formatCount(files.deleted)} deleted`
        : 'unchanged since the last index';
  const languages = sortedCounts(
    Object.fromEntries(Object.entries(report.languages).map(([lang, c]) => [lang, c.files])),
  ).map(([lang, count]) => `${lang} ${formatCount(count)} (${formatBytes(report.languages[lang]?.bytes ?? 0)})`);
  const phaseOrder = ['walk', 'load', 'parse', 'resolve', 'save'];
  const rank = (phase: string): number => (phaseOrder.includes(phase) ? phaseOrder.indexOf(phase) : phaseOrder.length);
  const phases = Object.entries(report.phases_ms)
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([phase, ms]) => `${phase} ${formatDuration(ms)}`)
    .join(' · ');
  return [
    `Indexed ${report.repo} at ${report.root}`,
    `Mode         ${modeText}`,
    `Files        ${formatCount(files.total)}`,
    `Languages    ${languages.length > 0 ? languages.join(' · ') : '—'}`,
    `Nodes        ${formatCount(report.nodes.total)}: ${formatCounts(report.nodes.by_kind)}`,
    `Edges        ${formatCount(report.edges.total)}: ${formatCounts(report.edges.by_kind)}`,
    `  by origin  ${formatCounts(report.edges.by_origin)}`,
    `  unresolved ${formatCount(report.edges.unresolved)}`,
    ...skippedLines(report.skipped, report.skipped_by_reason),
    ...failureLines(report.failures),
    `Snapshot     ${report.snapshot.path} (${formatBytes(report.snapshot.bytes)})`,
    `Time         ${formatDuration(report.wall_ms)} on ${report.threads} threads${phases ? ` (${phases})` : ''}`,
    `Peak memory  ${formatBytes(peakRssBytes)}`,
  ].join('\n');
}

function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}

/** The summary `gortex status` prints. */
export function formatStatusSummary(status: StatusReport, now: number = Date.now()): string {
  if (!status.indexed) {
    return [
      status.snapshot_error
        ? `${status.root} is not indexed: its snapshot ${status.snapshot_path} is unusable (${status.snapshot_error}).`
        : `${status.root} is not indexed (no snapshot at ${status.snapshot_path}).`,
      `Run \`gortex index ${status.root}\` to index it.`,
    ].join('\n');
  }
  const { modified, added, deleted } = status.stale;
  const when =
    status.indexed_at_ms === null
      ? ''
      : ` ${ago(status.indexed_at_ms, now)} (${new Date(status.indexed_at_ms).toISOString()})`;
  const lines = [
    `Repository   ${status.repo} at ${status.root}`,
    `Indexed     ${when || ' yes'}`,
    `Snapshot     ${status.snapshot_path}`,
    `Files        ${formatCount(status.files)}` +
      (status.nodes !== undefined ? ` · ${formatCount(status.nodes)} nodes` : '') +
      (status.edges !== undefined ? ` · ${formatCount(status.edges)} edges` : ''),
    `Languages    ${formatCounts(Object.fromEntries(Object.entries(status.languages ?? {}).map(([l, c]) => [l, c.files])))}`,
  ];
  if (status.snapshot_error) lines.push(`Snapshot err ${status.snapshot_error}`);
  if (status.fresh) {
    lines.push('Freshness    fresh: the index matches the files on disk');
  } else {
    lines.push(
      `Freshness    stale: ${formatCount(modified.length)} modified, ${formatCount(added.length)} added, ` +
        `${formatCount(deleted.length)} deleted — run \`gortex index\` to refresh`,
      ...listSome(modified, LIST_LIMIT, (p) => `M ${p}`),
      ...listSome(added, LIST_LIMIT, (p) => `A ${p}`),
      ...listSome(deleted, LIST_LIMIT, (p) => `D ${p}`),
    );
  }
  lines.push(...skippedLines(status.skipped, status.skipped_by_reason), ...failureLines(status.failures));
  return lines.join('\n');
}
