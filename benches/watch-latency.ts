// Write → queryable through an embedded repository's watcher, per edit, on a real corpus edited in
// place (every file is restored afterwards, also on failure).
//
//   npm run bench:watch -- --corpus DIR  (or: node dist/benches/watch-latency.js --corpus DIR) [--home DIR] [--edits N]
// Two edit kinds, N files each (spread over the corpus's source files, seeded): `body` inserts a
// comment line in the middle of the file (declarations keep their names; the common edit), `append`
// adds a new uniquely named function at the end. After each write a client polls, 2 ms apart,
// `search_symbols` through `context()` (which starts a pending re-index at once) until the pass
// that saw the write is answered (body) or the new function is found (append). Prints one JSON line.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { flag, prng, probeSource, sample } from './common';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const root = path.resolve(flag('--corpus', path.join(os.homedir(), '.cache', 'gortex-corpora', 'TypeScript-4.8.4')));
  const edits = Number(flag('--edits', '10'));
  process.env.GORTEX_HOME = path.resolve(flag('--home', fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-latency-'))));
  const { openEmbedded } = await import('../ts/workspace/embedded');
  let t = Date.now();
  const repo = await openEmbedded(root, { watch: true });
  const openMs = Date.now() - t;
  const originals = new Map<string, Buffer>();
  const rows: Record<string, unknown>[] = [];
  try {
    const ctx0 = await repo.context();
    // Files the graph holds that declare something (an edit there has something to move).
    const files = ctx0.engine.fileNodes(ctx0.repo, ['function', 'method']).filter((f) => f.symbols > 0).map((f) => f.path);
    const candidates = files.filter((f) => /\.(ts|js|py|go|rs|java)$/.test(f) && !f.endsWith('.d.ts') && fs.statSync(path.join(root, f)).size < 512 * 1024);
    const picked = sample(candidates, edits * 2, prng(20261130));
    ctx0.engine.query('search_symbols', { query: 'warmup' }, { repo: ctx0.repo });
    for (const [i, rel] of picked.entries()) {
      const mode = i < edits ? 'body' : 'append';
      const abs = path.join(root, rel);
      const before = fs.readFileSync(abs);
      originals.set(abs, before);
      const name = `gortexLatency${i}`;
      const ext = path.extname(rel);
      let text: string;
      if (mode === 'body') {
        const lines = before.toString('utf8').split('\n');
        const comment = ext === '.py' ? '# gortex latency probe' : '// gortex latency probe';
        lines.splice(Math.floor(lines.length / 2), 0, comment);
        text = lines.join('\n');
      } else {
        text = `${before.toString('utf8')}${probeSource(rel, name)}`;
      }
      const reportBefore = (await repo.context()).lastIndex;
      // When the pass that saw the write finished (the rest is the first search building its index).
      let passEnd = -1;
      const off = repo.onReindexed((change) => {
        if (passEnd < 0) passEnd = change.timestamp;
      });
      t = Date.now();
      fs.writeFileSync(abs, text);
      let ms = -1;
      let report = reportBefore;
      while (Date.now() - t < 60_000) {
        const ctx = await repo.context();
        const found = ctx.engine.query('search_symbols', { query: mode === 'body' ? 'probe' : name }, { repo: ctx.repo }) as { results?: { name: string }[] };
        const done = mode === 'body' ? ctx.lastIndex !== reportBefore : (found.results ?? []).some((r) => r.name === name);
        if (done) {
          ms = Date.now() - t;
          report = ctx.lastIndex;
          break;
        }
        await sleep(2);
      }
      rows.push({
        mode,
        file: rel,
        ms,
        pass_ms: report?.wall_ms ?? null,
        to_pass_end_ms: passEnd < 0 ? null : passEnd - t,
        phases_ms: report?.phases_ms ?? null,
        resolved: report?.files.resolved ?? null,
        graph_layout: report?.graph_layout ?? null,
        lookup_tables: report?.lookup_tables ?? null,
      });
      off();
      // Restore and let the watcher take it back before the next edit, then bring the search
      // index up to date (else the next edit's first poll would build it, inside its window).
      fs.writeFileSync(abs, before);
      originals.delete(abs);
      const restored = (await repo.context()).lastIndex;
      for (let k = 0; k < 200 && (await repo.context()).lastIndex === restored; k++) await sleep(10);
      const settled = await repo.context();
      settled.engine.query('search_symbols', { query: 'warmup' }, { repo: settled.repo });
    }
  } finally {
    for (const [abs, bytes] of originals) fs.writeFileSync(abs, bytes);
    repo.close();
  }
  const summary: Record<string, unknown> = {};
  for (const mode of ['body', 'append']) {
    const ms = rows.filter((r) => r.mode === mode).map((r) => r.ms as number);
    const pass = rows.filter((r) => r.mode === mode && r.pass_ms !== null).map((r) => r.pass_ms as number);
    summary[mode] = { edits: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms), pass_p50: percentile(pass, 50) };
  }
  process.stdout.write(`${JSON.stringify({ corpus: root, open_ms: openMs, summary, rows })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`watch-latency: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
