// Answers while a cold repository warms up: what an agent that queries during the opening pass gets
// (how soon, covering how much) and what it costs the pass.
//
//   npm run bench:warmup -- --corpus DIR [--every MS] [--query NAME] [--passes N]
// Per pass a fresh GORTEX_HOME (so every open is cold) and a fresh in-process Engine. `alone`: the
// opening pass with nobody asking. `queried`: the same pass while a client, every MS (default 1000),
// asks `Engine.provisional` and then runs `search_symbols` on whatever it serves — the daemon's path
// for a call that arrives while a repository warms up. Passes alternate alone/queried. Prints one
// JSON line per pass (coverage: `<ms>:<files served>/<read>/<total>`, `*` = built for that call,
// `~` = a fresher one building in the background) and a summary line.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { flag } from './common';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Answer {
  at_ms: number;
  files: number;
  total: number;
  rebuilt: boolean;
  refreshing: boolean;
  read: number;
  build_ms: number;
  /** provisional() + search_symbols, as the caller waited for them. */
  answer_ms: number;
  hits: number;
}

async function pass(root: string, queried: boolean, everyMs: number, query: string): Promise<Record<string, unknown>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-warmup-'));
  const { Engine } = await import('../ts/engine/engine');
  const engine = new Engine({ home });
  const started = Date.now();
  let done = false;
  const indexing = engine.indexRepo(root).finally(() => (done = true));
  const answers: Answer[] = [];
  let refusals = 0;
  if (queried) {
    while (!done) {
      await sleep(everyMs);
      if (done) break;
      const asked = Date.now();
      const status = await engine.provisional(root);
      if (!status.available) {
        refusals++;
        continue;
      }
      const result = engine.query('search_symbols', { query, limit: 20 }, { repo: root }) as { results: unknown[] };
      answers.push({
        at_ms: asked - started,
        files: status.files,
        total: status.total,
        rebuilt: status.rebuilt,
        refreshing: status.refreshing,
        read: status.read,
        build_ms: status.build_ms,
        answer_ms: Date.now() - asked,
        hits: result.results.length,
      });
    }
  }
  const report = await indexing;
  const readyMs = Date.now() - started;
  fs.rmSync(home, { recursive: true, force: true });
  return {
    mode: queried ? 'queried' : 'alone',
    files: report.files.total,
    ready_ms: readyMs,
    parse_ms: report.phases_ms.parse ?? null,
    resolve_ms: report.phases_ms.resolve ?? null,
    ...(queried
      ? {
          answers: answers.length,
          not_available: refusals,
          first_answer_ms: answers[0]?.at_ms ?? null,
          first_answer_files: answers[0]?.files ?? null,
          rebuilds: answers.filter((a) => a.rebuilt).length,
          rebuild_ms_total: answers.reduce((sum, a) => sum + a.build_ms, 0),
          answer_ms_max: Math.max(0, ...answers.map((a) => a.answer_ms)),
          // at: files served / read so far / total; * built for this call, ~ a fresher one building.
          coverage: answers.map((a) => `${a.at_ms}ms:${a.files}/${a.read}/${a.total}${a.rebuilt ? '*' : ''}${a.refreshing ? '~' : ''}`).join(' '),
        }
      : {}),
  };
}

async function main(): Promise<void> {
  const root = path.resolve(flag('--corpus', path.join(os.homedir(), '.cache', 'gortex-corpora', 'TypeScript-4.8.4', 'src')));
  const everyMs = Number(flag('--every', '1000'));
  const query = flag('--query', 'createProgram');
  const passes = Number(flag('--passes', '2'));
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < passes * 2; i++) {
    const row = { corpus: path.basename(root), ...(await pass(root, i % 2 === 1, everyMs, query)) };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  const median = (mode: string): number => {
    const values = rows.filter((r) => r.mode === mode).map((r) => r.ready_ms as number).sort((a, b) => a - b);
    return values[Math.floor((values.length - 1) / 2)] ?? 0;
  };
  const alone = median('alone');
  const queried = median('queried');
  console.log(JSON.stringify({ summary: true, corpus: path.basename(root), every_ms: everyMs, ready_ms_alone: alone, ready_ms_queried: queried, overhead: alone > 0 ? +(queried / alone - 1).toFixed(3) : null }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
