// Watcher storm on a private copy of a corpus: 500 files appended at once while a 10 ms timer
// measures the event loop's longest stall, then when the re-index pass that picks them up ends.
//
//   node dist/benches/watch-storm.js [--corpus DIR] [--files N]
// Default corpus: TypeScript 4.8.4 from the corpora cache (copied to a temp dir first; the cache is
// never edited). Prints one JSON line.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { flag } from './common';

async function main(): Promise<void> {
  const source = flag('--corpus', path.join(os.homedir(), '.cache', 'gortex-corpora', 'TypeScript-4.8.4'));
  const count = Number(flag('--files', '500'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-storm-'));
  const root = path.join(work, 'repo');
  fs.cpSync(source, root, { recursive: true });
  process.env.GORTEX_HOME = path.join(work, 'home');
  const { openEmbedded } = await import('../ts/workspace/embedded');
  try {
    let t = Date.now();
    const repo = await openEmbedded(root, { watch: true });
    const openMs = Date.now() - t;
    // The largest directory of source files gets the edits: the worst case for a per-directory watcher.
    const dirs = new Map<string, string[]>();
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(ts|js|py|go|rs|java)$/.test(entry.name)) {
        const list = dirs.get(entry.parentPath) ?? [];
        list.push(entry.name);
        dirs.set(entry.parentPath, list);
      }
    }
    const [dir, names] = [...dirs.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    const files = names.slice(0, count);
    let maxGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const passes: { after_ms: number; files: number; wall_ms: number }[] = [];
    repo.onReindexed((c) => passes.push({ after_ms: Date.now() - t, files: c.files.length, wall_ms: c.report.wall_ms }));
    t = Date.now();
    for (const f of files) fs.appendFileSync(path.join(dir, f), `\nexport function stormFn_${f.replace(/\W/g, '_')}() { return 1; }\n`);
    const wroteMs = Date.now() - t;
    // Settled: a pass has ended and nothing more came for 4 s.
    while (passes.length === 0 || Date.now() - t - passes[passes.length - 1]!.after_ms < 4000) await new Promise((r) => setTimeout(r, 200));
    clearInterval(timer);
    process.stdout.write(
      `${JSON.stringify({ corpus: source, open_ms: openMs, dir: path.relative(root, dir), files: files.length, wrote_ms: wroteMs, passes, max_event_loop_gap_ms: maxGap, watch: repo.watchState() })}\n`,
    );
    repo.close();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`watch-storm: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
