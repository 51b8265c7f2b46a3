/**
 * Language-server diagnostics of speculative file states (`preview_edit`, `simulate_chain`): each
 * state's changed files are lent to their server as buffers (`LspPool.withTexts`, inside the
 * server's turn), the files of interest — the touched ones and those of the callers the edit may
 * break — are diagnosed, and the server is put back to the disk's text afterwards. Two states
 * diagnosed this way give the delta: the diagnostics an edit adds and those it clears.
 */
import * as path from 'node:path';
import { lspPool } from '../lsp/pool';
import { specFor } from '../lsp/specs';
import type { LspServer, Published } from '../lsp/server';
import { severityName, type Diagnostic } from '../lsp/types';
import type { ToolContext } from '../workspace/context';
import { isBinary, MAX_WRITE_BYTES } from '../workspace/writes';
import { counts, diagnosticRow } from './diagnostics';

/** Reads a file of a state (null: absent in it). */
export type StateReader = (rel: string) => Buffer | null;

/** One file's diagnostics in one state. */
export interface FileDiagnosis {
  server: string;
  /** Null: the server published nothing within the wait. */
  diagnostics: Diagnostic[] | null;
}

/** One state's diagnoses by path, and the servers that could not run. */
export interface StateDiagnosis {
  files: Map<string, FileDiagnosis>;
  unavailable: Map<string, string>;
}

/** Most files diagnosed per state (touched files first). */
export const MAX_DIAGNOSED_FILES = 12;
/** How long an untouched file's server gets to publish again after its neighbours changed. */
const REPUBLISH_MS = 2500;
/** Per-file wait for a publish after a change. */
const WAIT_MS = 15_000;
/** New diagnostics listed per file. */
const MAX_NEW_ROWS = 20;

/**
 * Diagnoses `files` in the state `read` gives, lending the server each of `changed` (the files the
 * state differs from the disk in) for the time of it. Files no server serves are left out;
 * servers that cannot run are named in `unavailable`.
 */
export async function diagnoseState(ctx: ToolContext, files: readonly string[], changed: readonly string[], read: StateReader): Promise<StateDiagnosis> {
  const pool = lspPool();
  const out: StateDiagnosis = { files: new Map(), unavailable: new Map() };
  const groups = new Map<LspServer, { files: string[]; changed: string[] }>();
  for (const rel of new Set([...files, ...changed])) {
    const spec = specFor(rel);
    if (!spec || out.unavailable.has(spec.name)) continue;
    let server: LspServer;
    try {
      server = await pool.serverFor(ctx.root, rel);
    } catch (error) {
      out.unavailable.set(spec.name, error instanceof Error ? error.message : String(error));
      continue;
    }
    const group = groups.get(server) ?? { files: [], changed: [] };
    if (files.includes(rel)) group.files.push(rel);
    if (changed.includes(rel)) group.changed.push(rel);
    groups.set(server, group);
  }
  const textOf = (rel: string): string | undefined => {
    const bytes = read(rel);
    return bytes === null || bytes.length > MAX_WRITE_BYTES || isBinary(bytes) ? undefined : bytes.toString('utf8');
  };
  for (const [server, group] of groups) {
    const abs = (rel: string): string => path.join(ctx.root, rel);
    const lent = group.changed.flatMap((rel) => {
      const text = textOf(rel);
      return text === undefined ? [] : [[abs(rel), text] as const];
    });
    await pool.exclusive(server, () =>
      pool.withTexts(server, lent, async () => {
        const mark = server.publishCount;
        const present = group.files.filter((rel) => {
          const text = textOf(rel);
          if (text !== undefined && !lent.some(([a]) => a === abs(rel))) pool.sync(server, abs(rel), text);
          return text !== undefined;
        });
        // Every file is in the server before any wait: it diagnoses them together.
        const published = await Promise.all(present.map((rel) => publishAfter(server, abs(rel), mark)));
        present.forEach((rel, i) => out.files.set(rel, { server: server.name, diagnostics: published[i]?.diagnostics ?? null }));
      }),
    );
  }
  return out;
}

/**
 * The diagnostics of `abs` for the texts held now: a file changed since `mark` waits for its
 * publish; an unchanged one gets a short while to be published again (its neighbours changed),
 * else what is stored for its text stands.
 */
async function publishAfter(server: LspServer, abs: string, mark: number): Promise<Published | undefined> {
  const settle = server.resolved.spec.settleMs;
  if ((server.changedAtSeq(abs) ?? mark) >= mark) return server.settledPublish(abs, WAIT_MS, settle);
  const again = await server.waitForPublish(abs, mark, REPUBLISH_MS);
  if (!again) return server.diagnostics.get(abs);
  return (await server.settledPublish(abs, settle, settle)) ?? again;
}

/** The key diagnostics are matched by across states (positions move with edits). */
function keyOf(d: Diagnostic): string {
  return `${severityName(d.severity)}\u0000${String(d.code ?? '')}\u0000${d.message}`;
}

/** What an edit did to the diagnostics: per file, counts before and after, the new ones, how many cleared. */
export function diagnosisDelta(before: StateDiagnosis, after: StateDiagnosis, files: readonly string[], skipped: readonly string[]): Record<string, unknown> {
  const rows: Record<string, unknown>[] = [];
  let newErrors = 0;
  for (const rel of files) {
    const b = before.files.get(rel);
    const a = after.files.get(rel);
    if (!b && !a) continue;
    const remaining = new Map<string, number>();
    for (const d of b?.diagnostics ?? []) remaining.set(keyOf(d), (remaining.get(keyOf(d)) ?? 0) + 1);
    const added: Diagnostic[] = [];
    for (const d of a?.diagnostics ?? []) {
      const left = remaining.get(keyOf(d)) ?? 0;
      if (left > 0) remaining.set(keyOf(d), left - 1);
      else added.push(d);
    }
    const cleared = [...remaining.values()].reduce((n, v) => n + v, 0);
    newErrors += added.filter((d) => (d.severity ?? 1) === 1).length;
    rows.push({
      path: rel,
      server: (a ?? b)!.server,
      before: b?.diagnostics ? counts(b.diagnostics) : null,
      after: a?.diagnostics ? counts(a.diagnostics) : null,
      new: added.slice(0, MAX_NEW_ROWS).map(diagnosticRow),
      ...(added.length > MAX_NEW_ROWS ? { new_truncated: added.length - MAX_NEW_ROWS } : {}),
      cleared: a?.diagnostics && b?.diagnostics ? cleared : null,
      ...(a && a.diagnostics === null ? { note: 'the server published nothing for this state within the wait' } : {}),
    });
  }
  const unavailable = new Map([...before.unavailable, ...after.unavailable]);
  return {
    ran: rows.length > 0,
    files: rows,
    new_errors: newErrors,
    ...(unavailable.size > 0 ? { unavailable: [...unavailable].map(([server, reason]) => ({ server, reason })) } : {}),
    ...(skipped.length > 0 ? { not_diagnosed: skipped } : {}),
    ...(rows.length === 0 && unavailable.size === 0 ? { reason: 'no language server serves the files involved' } : {}),
  };
}
