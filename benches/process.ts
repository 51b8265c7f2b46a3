// Measured child processes for the benchmarks: wall, CPU and peak RSS under /usr/bin/time (plus the
// sampled RSS of the whole process tree for programs that fork), and the release bench_index binary.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sh } from './common';

/** How long a measured process may run unless the caller says otherwise. */
const DEFAULT_TIMEOUT_MS = 20 * 60 * 1000;

const log = (msg: string): void => void process.stderr.write(`bench: ${msg}\n`);

/** One measured process: wall and CPU seconds, peak RSS, its output, why it failed. */
export interface Run { ok: boolean; wall_s: number; cpu_s: number; rss_mb: number; rss_time_mb: number; rss_tree_mb: number; stdout: string; stderr: string; error?: string }

/** Summed RSS (KiB) of `pid` and all its descendants, from /proc. */
function treeRssKb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const p = Number(entry);
      const ppid = Number(fields[1]);
      rss.set(p, Number(fields[21]) * 4); // rss pages (4 KiB)
      const list = children.get(ppid) ?? [];
      list.push(p);
      children.set(ppid, list);
    } catch {
      /* the process exited while we looked */
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/** Runs `cmd` under /usr/bin/time; wall seconds and peak RSS (max of time's %M and the sampled tree sum). */
export function timed(cmd: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; sampleTree?: boolean } = {}): Promise<Run> {
  const timeFile = path.join(os.tmpdir(), `gortex-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%e %M %U %S', '-o', timeFile, ...cmd], {
      // A process group of its own: a timeout kills the measured program too, not only
      // /usr/bin/time (an orphaned program would hold the output pipes open, and run on).
      cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let peakTreeKb = 0;
    const sampler = opts.sampleTree && child.pid
      ? setInterval(() => (peakTreeKb = Math.max(peakTreeKb, treeRssKb(child.pid!))), 250)
      : undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      }
    }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (sampler) clearInterval(sampler);
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      let wall = elapsed;
      let timeKb = 0;
      let cpu = 0;
      try {
        const line = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
        const m = /^([\d.]+) (\d+) ([\d.]+) ([\d.]+)$/.exec(line);
        if (m) {
          wall = Number(m[1]);
          timeKb = Number(m[2]);
          cpu = Number(m[3]) + Number(m[4]);
        }
        fs.rmSync(timeFile, { force: true });
      } catch { /* no time output: killed */ }
      const ok = code === 0 && !timedOut;
      const error = timedOut
        ? `timed out after ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`
        : ok ? undefined : `exit ${code}: ${lastLines(stderr + '\n' + stdout, 3)}`;
      const rssKb = Math.max(timeKb, peakTreeKb);
      resolve({ ok, wall_s: wall, cpu_s: cpu, rss_mb: rssKb / 1024, rss_time_mb: timeKb / 1024, rss_tree_mb: peakTreeKb / 1024, stdout, stderr, ...(error ? { error } : {}) });
    });
  });
}

/** The last `n` non-empty lines of `text`, colour codes removed, joined with ` / ` (at most 300 characters). */
export function lastLines(text: string, n: number): string {
  return text.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter(Boolean).slice(-n).join(' / ').slice(0, 300);
}

/** Builds `bench_index` in release and returns its path. */
export function buildBenchBinary(): string {
  log('cargo build --release -p gortex-index --example bench_index');
  const out = sh('cargo', ['build', '--release', '-p', 'gortex-index', '--example', 'bench_index', '--message-format=json']);
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line) as { reason?: string; target?: { name?: string }; executable?: string | null };
    if (msg.reason === 'compiler-artifact' && msg.target?.name === 'bench_index' && msg.executable) return msg.executable;
  }
  throw new Error('cargo did not report the bench_index executable');
}

