/**
 * The sidecar: the user data every gortex process of the machine shares (memories and notes with
 * their anchors, agent feedback, the token-savings ledger), in `<gortex home>/sidecar.sqlite`.
 * SQLite lives in the addon (`gortex-store`, WAL mode, schema-versioned migrations); this is its
 * typed face. One open database per path per process.
 */
import * as path from 'node:path';
import { loadNative, type NativeSidecar } from './native';
import { gortexHome } from '../support/home';
import { ToolInputError } from '../support/tool-input-error';

/** The database's file name under the gortex home. */
export const SIDECAR_FILE = 'sidecar.sqlite';

/** Kinds of memory. */
export const MEMORY_KINDS = ['memory', 'decision', 'invariant', 'risk_ack', 'note'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Feedback ratings. */
export const FEEDBACK_RATINGS = ['useful', 'not_useful', 'wrong', 'missing'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** What a memory is about, as given. */
export interface AnchorInput {
  kind: 'symbol' | 'file';
  target: string;
  name?: string;
  fingerprint?: string;
}

/** A stored anchor: `original` is what it was first given, `target` where it points now. */
export interface StoredAnchor {
  ord: number;
  kind: 'symbol' | 'file';
  target: string;
  original: string;
  name?: string;
  fingerprint?: string;
  status: 'ok' | 'moved' | 'missing';
  checked_at?: number;
}

/** A stored memory. */
export interface StoredMemory {
  id: number;
  kind: MemoryKind;
  repo: string;
  title?: string;
  body: string;
  tags: string[];
  session?: string;
  created_at: number;
  updated_at: number;
  accessed_at?: number;
  access_count: number;
  anchors: StoredAnchor[];
}

/** A recall candidate. */
export interface MemoryHit {
  memory: StoredMemory;
  text_score?: number;
}

/** Ratings one symbol received. */
export interface SymbolTally {
  useful: number;
  not_useful: number;
  wrong: number;
  missing: number;
  last_at: number;
}

/** One aggregated ledger row. */
export interface SavingsRow {
  key: string;
  calls: number;
  returned_tokens: number;
  baseline_tokens: number;
}

/** One day's calls of one tool on one repository, to add to the ledger. */
export interface SavingsEntry {
  day: string;
  repo: string;
  tool: string;
  calls: number;
  returned_tokens: number;
  baseline_tokens: number;
}

/** The store's feedback report. */
export interface FeedbackReport {
  ratings: number;
  by_rating: Record<string, number>;
  most_useful: [string, number][];
  most_missed: [string, number][];
  most_wrong: [string, number][];
  by_tool: { tool: string; useful: number; not_useful: number; wrong: number; missing: number; precision?: number; recall?: number }[];
  precision?: number;
  recall?: number;
}

/** The typed sidecar. Methods throw `ToolInputError` for what the caller can fix. */
export class Sidecar {
  constructor(private readonly native: NativeSidecar) {}

  /** The database file. */
  get path(): string {
    return this.native.path;
  }

  private call<T>(op: string, args: object): T {
    let text: string;
    try {
      text = this.native.call(op, JSON.stringify(args));
    } catch (e) {
      const message = (e as Error).message;
      const m = /^(invalid_argument|not_found): ([\s\S]*)$/.exec(message);
      if (m) throw new ToolInputError(m[1], m[2]);
      throw new Error(`the sidecar store (${this.native.path}) failed: ${message}`);
    }
    return JSON.parse(text) as T;
  }

  memoryAdd(input: { kind: MemoryKind; repo: string; title?: string; body: string; tags?: string[]; session?: string; anchors?: AnchorInput[] }): StoredMemory {
    return this.call('memory_add', input);
  }
  memoryGet(ids: number[]): StoredMemory[] {
    return this.call('memory_get', { ids });
  }
  memoryUpdate(patch: { id: number; kind?: MemoryKind; title?: string; body?: string; tags?: string[]; anchors?: AnchorInput[] }): StoredMemory {
    return this.call('memory_update', patch);
  }
  memoryDelete(ids: number[]): number[] {
    return this.call('memory_delete', { ids });
  }
  memorySearch(q: { repo: string; text?: string; kinds?: MemoryKind[]; targets?: string[]; files?: string[]; all_repos?: boolean; limit: number }): MemoryHit[] {
    return this.call('memory_search', q);
  }
  memoryList(q: { repo?: string; kinds?: MemoryKind[]; session?: string; limit: number; offset?: number }): { memories: StoredMemory[]; total: number } {
    return this.call('memory_list', q);
  }
  anchorsUpdate(updates: { memory_id: number; ord: number; target: string; status: StoredAnchor['status']; name?: string; fingerprint?: string }[]): number {
    return updates.length === 0 ? 0 : this.call('anchors_update', { updates });
  }
  /** Re-points anchors at `from` (or inside it) to `to`; returns how many moved. */
  anchorsRetarget(repo: string, from: string, to: string, name?: string): number {
    return this.call('anchors_retarget', { repo, from, to, name: name ?? null });
  }
  memoryMarkAccessed(ids: number[]): void {
    if (ids.length > 0) this.call('memory_mark_accessed', { ids });
  }
  feedbackAdd(input: { repo: string; tool: string; rating: FeedbackRating; ids?: string[]; note?: string; session?: string; at?: number }): number {
    return this.call('feedback_add', input);
  }
  /** Several ratings in one transaction (all land or none). */
  feedbackAddMany(inputs: { repo: string; tool: string; rating: FeedbackRating; ids?: string[]; note?: string; session?: string; at?: number }[]): number {
    return inputs.length === 0 ? 0 : this.call('feedback_add_many', { inputs });
  }
  feedbackTallies(repo: string, ids: string[]): Record<string, SymbolTally> {
    return ids.length === 0 ? {} : this.call('feedback_tallies', { repo, ids });
  }
  feedbackReport(q: { repo?: string; since_ms?: number; top_n?: number }): FeedbackReport {
    return this.call('feedback_report', { repo: q.repo ?? null, since_ms: q.since_ms ?? null, top_n: q.top_n ?? null });
  }
  feedbackCount(repo: string): number {
    return this.call('feedback_count', { repo });
  }
  savingsAdd(entries: SavingsEntry[]): void {
    if (entries.length > 0) this.call('savings_add', { entries });
  }
  savingsReport(sinceDay?: string): { total: SavingsRow; by_tool: SavingsRow[]; by_repo: SavingsRow[]; by_day: SavingsRow[] } {
    return this.call('savings_report', { since_day: sinceDay ?? null });
  }
  savingsReset(): number {
    return this.call('savings_reset', {});
  }
  schemaVersion(): number {
    return this.call('schema_version', {});
  }
  integrityCheck(): string {
    return this.call('integrity_check', {});
  }
}

const open = new Map<string, Sidecar>();

/** The sidecar of a gortex home (default: this process's), opened once per process. */
export function sidecarAt(home: string = gortexHome()): Sidecar {
  const file = path.join(home, SIDECAR_FILE);
  let store = open.get(file);
  if (!store) {
    try {
      store = new Sidecar(new (loadNative().Sidecar)(file));
    } catch (e) {
      throw new Error(`cannot open the gortex sidecar ${file}: ${(e as Error).message}`);
    }
    open.set(file, store);
  }
  return store;
}
