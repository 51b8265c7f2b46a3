/** Plain-text renderings of daemon answers. */
import type { TrackedInfo } from '../daemon/repos';

/** The daemon status as `control status` returns it. */
export interface DaemonStatus {
  version: string;
  pid: number;
  uptime_s: number;
  socket: string;
  http: { url: string } | null;
  memory: { rss_bytes: number; heap_used_bytes: number };
  repos: TrackedInfo[];
  session_list: { id: string; client: string; pid: number; repo: string; started_at: string }[];
}

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** How long ago an epoch-ms instant was, in words. */
function ago(ms: number | null): string {
  if (ms === null) return 'never';
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

/** One line per tracked repository. */
export function formatRepos(repos: TrackedInfo[]): string {
  if (repos.length === 0) return 'no repositories are tracked (gortex track PATH adds one)';
  return repos
    .map((r) => {
      const counts = r.nodes === null ? '' : `  ${r.files} files, ${r.nodes} nodes, ${r.edges} edges, indexed ${ago(r.indexed_at_ms)}`;
      const watch = r.watch && !r.watch.watching ? `  (not watching${r.watch.error ? `: ${r.watch.error}` : ''})` : '';
      const project = r.project ? ` [${r.project}]` : '';
      const progress = r.progress && r.progress.total > 0 ? ` ${r.progress.done}/${r.progress.total}` : '';
      const partial = r.partial ? `  (answering from ${r.partial.files} of ${r.partial.total} files so far)` : '';
      return `${r.name}${project}  ${r.root}  ${r.phase}${progress}${r.error ? `: ${r.error}` : ''}${counts}${partial}${watch}`;
    })
    .join('\n');
}

/** `gortex daemon status` as text. */
export function formatDaemonStatus(status: DaemonStatus): string {
  const lines = [
    `gortex daemon ${status.version}  pid ${status.pid}  up ${status.uptime_s}s  rss ${mib(status.memory.rss_bytes)}`,
    `socket ${status.socket}${status.http ? `  http ${status.http.url}` : ''}`,
    '',
    formatRepos(status.repos),
    '',
    `${status.session_list.length} session(s)`,
    ...status.session_list.map((s) => `  ${s.client} (pid ${s.pid})  ${s.repo}  since ${s.started_at}`),
  ];
  return lines.join('\n');
}
