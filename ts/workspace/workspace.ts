/**
 * The repositories a session can reach: the \`Workspace\` a transport hands its tools (the daemon's
 * tracked repositories, or the single embedded one), its change log and its saved scopes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexReport } from '../engine/engine';
import { writeFileAtomic } from '../support/atomic-write';
import { withFileLock } from '../support/file-lock';
import { ToolInputError } from '../support/tool-input-error';
import type { ToolContext } from './context';
import type { CrossEdge } from './cross-repo';

/** One repository of a workspace, as `list_repos` shows it. */
export interface WorkspaceRepo {
  name: string;
  root: string;
  project: string | null;
  /** Warm-up phase (`ready` once queryable). */
  phase: string;
  files: number | null;
  nodes: number | null;
  edges: number | null;
}

/** One file a watcher-driven re-index picked up. */
export interface ChangeRow {
  repo: string;
  path: string;
  /** Epoch milliseconds of the re-index that saw it. */
  at: number;
}

/** The repositories a session can reach, and what it may do with them. */
export interface Workspace {
  /** `daemon`: every tracked repository; `embedded`: the one this process opened. */
  readonly mode: 'daemon' | 'embedded';
  repos(): WorkspaceRepo[];
  /** The context of one repository (by name or root), once it is ready. */
  contextOf(nameOrRoot: string): Promise<ToolContext>;
  /** Starts serving the repository containing `dir`; resolves once it is indexed. */
  track(dir: string, options: { name?: string; project?: string }): Promise<WorkspaceRepo>;
  /** Stops serving repositories matching a name, root or path prefix; returns their roots. */
  untrack(pathOrName: string): string[];
  /** Re-scans one repository now. */
  reindex(nameOrRoot: string): Promise<IndexReport | undefined>;
  /** Files re-indexed since `sinceMs` (newest first), from the watchers' change log. */
  changes(sinceMs: number): ChangeRow[];
  /** Saved scopes: named sets of repository names. */
  readonly scopes: ScopeStore;
  /** References between the workspace's repositories that imports prove (daemon only). */
  crossEdges?(): CrossEdge[];
}

/** Most change rows a workspace remembers. */
const CHANGE_LOG_ROWS = 5000;

/** A bounded log of re-indexed files, newest last. */
export class ChangeLog {
  private readonly rows: ChangeRow[] = [];
  /** Records the files of one re-index. */
  add(repo: string, files: readonly string[], at: number): void {
    for (const file of files) this.rows.push({ repo, path: file, at });
    if (this.rows.length > CHANGE_LOG_ROWS) this.rows.splice(0, this.rows.length - CHANGE_LOG_ROWS);
  }
  /** Rows at or after `sinceMs`, newest first, one per (repo, path) (its latest). */
  since(sinceMs: number): ChangeRow[] {
    const seen = new Set<string>();
    const out: ChangeRow[] = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const row = this.rows[i]!;
      if (row.at < sinceMs) break;
      const key = `${row.repo}\0${row.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(row);
    }
    return out;
  }
}

/** One saved scope. */
export interface SavedScope {
  repos: string[];
  created_at: string;
}

/** What a scope may be called: letters, digits, `_`, `.`, `-`; at most 64. */
const SCOPE_NAME = /^[\w.-]{1,64}$/;

/**
 * Saved scopes in `<gortex home>/scopes.json`, shared by every session of the machine. Saves and
 * deletes read and write the file under its cross-process lock, so concurrent sessions keep each
 * other's scopes; names are keys of a null-prototype record (`__proto__` or `constructor` is a
 * name like any other).
 */
export class ScopeStore {
  constructor(private readonly file: string) {}

  /** Every scope, by name (a null-prototype record). */
  list(): Record<string, SavedScope> {
    const scopes = Object.create(null) as Record<string, SavedScope>;
    let parsed: { scopes?: unknown };
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { scopes?: unknown };
    } catch {
      return scopes;
    }
    if (!parsed || typeof parsed.scopes !== 'object' || parsed.scopes === null) return scopes;
    for (const [name, scope] of Object.entries(parsed.scopes as Record<string, unknown>)) {
      const repos = (scope as Partial<SavedScope> | null)?.repos;
      if (Array.isArray(repos) && repos.every((r) => typeof r === 'string')) {
        scopes[name] = { repos, created_at: String((scope as Partial<SavedScope>).created_at ?? '') };
      }
    }
    return scopes;
  }

  /** Saves (or replaces) a scope; the name must be letters, digits, `_`, `.`, `-` (at most 64). */
  save(name: string, repos: string[]): void {
    if (!SCOPE_NAME.test(name)) {
      throw new ToolInputError('invalid_argument', `scope name ${JSON.stringify(name)} must be 1 to 64 letters, digits, _ . or -`);
    }
    withFileLock(this.file, () => {
      const scopes = this.list();
      scopes[name] = { repos, created_at: new Date().toISOString() };
      this.write(scopes);
    });
  }

  /** Deletes a scope; false when there was none. */
  delete(name: string): boolean {
    return withFileLock(this.file, () => {
      const scopes = this.list();
      if (!Object.hasOwn(scopes, name)) return false;
      delete scopes[name];
      this.write(scopes);
      return true;
    });
  }

  private write(scopes: Record<string, SavedScope>): void {
    writeFileAtomic(this.file, `${JSON.stringify({ scopes }, null, 2)}\n`);
  }
}

/** The scopes file under a gortex home. */
export function scopesFile(home: string): string {
  return path.join(home, 'scopes.json');
}

/** A workspace of exactly one (embedded) repository: tracking needs the daemon. */
export function singleRepoWorkspace(
  context: () => Promise<ToolContext>,
  peek: () => ToolContext,
  options: { scopes: ScopeStore; changes: ChangeLog; reindex?: () => Promise<IndexReport | undefined> },
): Workspace {
  const refuse = (): never => {
    throw new ToolInputError('not_available', 'this session serves one repository in-process (embedded); tracking more needs the daemon: run gortex mcp without --embedded, or gortex daemon start');
  };
  const nameOf = (ctx: ToolContext): string => ctx.lastIndex?.repo ?? path.basename(ctx.root);
  return {
    mode: 'embedded',
    repos: () => [row(peek(), nameOf(peek()), null)],
    async contextOf(nameOrRoot) {
      const ctx = await context();
      const name = nameOf(ctx);
      if (nameOrRoot !== name && nameOrRoot !== ctx.root) {
        throw new ToolInputError('not_found', `repository "${nameOrRoot}" is not served by this session; it serves ${name} (${ctx.root})`);
      }
      return ctx;
    },
    track: async () => refuse(),
    untrack: () => refuse(),
    async reindex(nameOrRoot) {
      await this.contextOf(nameOrRoot);
      return options.reindex?.();
    },
    changes: (sinceMs) => options.changes.since(sinceMs),
    scopes: options.scopes,
  };
}

/** A `WorkspaceRepo` row from an open repository's context. */
export function row(ctx: ToolContext, name: string, project: string | null): WorkspaceRepo {
  const summary = ctx.engine.repos().find((r) => r.root === ctx.root);
  return { name, root: ctx.root, project, phase: 'ready', files: summary?.files ?? null, nodes: summary?.nodes ?? null, edges: summary?.edges ?? null };
}
