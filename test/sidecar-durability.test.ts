/**
 * The sidecar under kill -9: writer processes (the built addon, as gortex itself writes) are
 * killed mid-stream, repeatedly, on one database; afterwards the file is sound, every write a
 * writer acknowledged is there, and every multi-row transaction landed whole or not at all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sidecarAt } from '../ts/engine/sidecar';
import { PACKAGE_ROOT } from './helpers/cli';

/** Anchors per memory and ledger rows per savings transaction: a partial transaction would show. */
const ANCHORS = 12;
const LEDGER_BATCH = 25;

/** A writer: alternates a 12-anchor memory and a 25-row ledger transaction, printing each acknowledged one. */
const WRITER = `
const { sidecarAt } = require(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist', 'ts', 'engine', 'sidecar.js'))});
const store = sidecarAt(process.argv[2]);
const tag = process.argv[3];
const body = 'x'.repeat(4000);
for (let i = 0; ; i++) {
  const m = store.memoryAdd({
    kind: 'memory', repo: 'durable', body: tag + ' ' + i + ' ' + body,
    anchors: Array.from({ length: ${ANCHORS} }, (_, k) => ({ kind: 'symbol', target: 'durable/f' + k + '.ts::s' + i })),
  });
  process.stdout.write('M ' + m.id + '\\n');
  store.savingsAdd(Array.from({ length: ${LEDGER_BATCH} }, (_, k) => ({ day: '2026-12-05', repo: 'durable', tool: 't' + k, calls: 1, returned_tokens: 1, baseline_tokens: 2 })));
  process.stdout.write('S\\n');
}
`;

/** Starts a writer; resolves its acknowledged memory ids and ledger batches when it is killed. */
function writer(script: string, home: string, tag: string): { child: ChildProcess; acked: { ids: number[]; batches: number }; started: Promise<void> } {
  const child = spawn(process.execPath, [script, home, tag], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked = { ids: [] as number[], batches: 0 };
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const started = new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ${tag} exited on its own (${code ?? signal}): ${stderr}`));
    });
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('M ')) acked.ids.push(Number(line.slice(2)));
        else if (line === 'S') acked.batches++;
      }
      if (acked.ids.length >= 20) resolve();
    });
  });
  return { child, acked, started };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('the sidecar survives kill -9', () => {
  test('three rounds of two writers killed mid-write lose nothing acknowledged and leave no half transaction', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-durable-'));
    const script = path.join(home, 'writer.js');
    fs.writeFileSync(script, WRITER);
    const ids: number[] = [];
    let batches = 0;
    for (let round = 0; round < 3; round++) {
      const writers = [writer(script, home, `a${round}`), writer(script, home, `b${round}`)];
      await Promise.all(writers.map((w) => w.started));
      // Let them run into the middle of more transactions, then kill both at once.
      await new Promise((r) => setTimeout(r, 150 + round * 100));
      await Promise.all(writers.map((w) => killed(w.child)));
      for (const w of writers) {
        ids.push(...w.acked.ids);
        batches += w.acked.batches;
      }
    }
    const store = sidecarAt(home);
    expect(store.integrityCheck()).toBe('ok');
    const kept = store.memoryGet(ids);
    // Every acknowledged memory is there, whole.
    expect(kept.map((m) => m.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(kept.every((m) => m.anchors.length === ANCHORS)).toBe(true);
    // Every memory in the file (acknowledged or committed just before the kill) has all its anchors.
    const all = store.memoryList({ repo: 'durable', limit: 10_000 });
    expect(all.total).toBeGreaterThanOrEqual(ids.length);
    expect(all.memories.every((m) => m.anchors.length === ANCHORS)).toBe(true);
    // Ledger transactions landed whole: each adds one call to each of 25 tools.
    const ledger = store.savingsReport();
    expect(ledger.total.calls % LEDGER_BATCH).toBe(0);
    expect(ledger.total.calls / LEDGER_BATCH).toBeGreaterThanOrEqual(batches);
    expect(new Set(ledger.by_tool.map((r) => r.calls)).size).toBe(1);
    // The full-text index agrees with the table (its triggers ran in the same transactions).
    const last = kept[kept.length - 1]!;
    const hits = store.memorySearch({ repo: 'durable', text: last.body.split(' ').slice(0, 2).join(' '), limit: 5000 });
    expect(hits.some((h) => h.memory.id === last.id)).toBe(true);
  });
});
