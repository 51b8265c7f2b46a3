/**
 * Many repositories behind one session: the `Workspace` a transport hands its tools (the daemon's
 * tracked repositories, or the single embedded one), the multi-repo tools (`track_repository`,
 * `list_repos`, `set_active_project`, `query_project`, saved scopes, `reindex_repository`,
 * `get_recent_changes`, …), and `callScoped`, which gives every tool `repo` / `project` / `scope`
 * narrowing by running it on each repository in scope and merging the answers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { IndexReport } from '../engine/engine';
import type { CrossEdge } from '../daemon/cross-repo';
// dispatch.ts imports the registry index, which imports this module: load it at call time.
type Dispatch = typeof import('./dispatch');
const dispatch = (): Promise<Dispatch> => import('./dispatch');
import { defineTool, ToolInputError, type ToolContext, type ToolDef } from './registry';
import { writeFileAtomic } from '../atomic-write';

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

/** Saved scopes in `<gortex home>/scopes.json`, shared by every session of the machine. */
export class ScopeStore {
  constructor(private readonly file: string) {}

  /** Every scope, by name. */
  list(): Record<string, { repos: string[]; created_at: string }> {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { scopes?: Record<string, { repos: string[]; created_at: string }> };
      return parsed.scopes ?? {};
    } catch {
      return {};
    }
  }

  /** Saves (or replaces) a scope. */
  save(name: string, repos: string[]): void {
    const scopes = this.list();
    scopes[name] = { repos, created_at: new Date().toISOString() };
    this.write(scopes);
  }

  /** Deletes a scope; false when there was none. */
  delete(name: string): boolean {
    const scopes = this.list();
    if (!(name in scopes)) return false;
    delete scopes[name];
    this.write(scopes);
    return true;
  }

  private write(scopes: Record<string, unknown>): void {
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
  options: { scopes: ScopeStore; changes: ChangeLog },
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
      return undefined;
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

/** The session's workspace, or a refusal. */
function workspaceOf(ctx: ToolContext): Workspace {
  if (!ctx.workspace) throw new ToolInputError('unavailable', 'this tool needs a served session (gortex mcp, the daemon or HTTP); gortex call has one repository only');
  return ctx.workspace;
}

/** The names a scope clause selects: `repo`, a saved `scope`, or a `project` (explicit or the session's active one). */
function targets(ws: Workspace, ctx: ToolContext, sel: { repo?: string | undefined; project?: string | undefined; scope?: string | undefined }): string[] | undefined {
  const project = sel.project ?? ctx.session?.store?.activeProject;
  const bound = ctx.session?.store?.boundRepos;
  // The common call narrows nothing: it must not pay for a row per repository (a native call each).
  if (sel.repo === undefined && sel.scope === undefined && project === undefined && (bound === undefined || bound.length < 2)) return undefined;
  const repos = ws.repos();
  if (sel.repo !== undefined) {
    const found = repos.find((r) => r.name === sel.repo || r.root === sel.repo);
    if (!found) throw new ToolInputError('not_found', `repository "${sel.repo}" is not in this workspace; repositories: ${repos.map((r) => r.name).join(', ') || 'none'}`);
    return [found.name];
  }
  if (sel.scope !== undefined) {
    const saved = ws.scopes.list()[sel.scope];
    if (!saved) throw new ToolInputError('not_found', `no saved scope "${sel.scope}"; scopes: ${Object.keys(ws.scopes.list()).join(', ') || 'none (save_scope creates one)'}`);
    const names = saved.repos.filter((n) => repos.some((r) => r.name === n));
    if (names.length === 0) throw new ToolInputError('not_found', `scope "${sel.scope}" names no repository served now (${saved.repos.join(', ')})`);
    return names;
  }
  if (project !== undefined) {
    const names = repos.filter((r) => r.project === project).map((r) => r.name);
    if (names.length === 0) {
      const projects = [...new Set(repos.flatMap((r) => (r.project ? [r.project] : [])))];
      throw new ToolInputError('not_found', `no repository belongs to project "${project}"; projects: ${projects.join(', ') || 'none (track with --project)'}`);
    }
    return names;
  }
  // A session opened at a folder holding several tracked repositories spans all of them.
  const served = bound?.filter((n) => repos.some((r) => r.name === n));
  if (served && served.length > 1) return served;
  return undefined;
}

const SCOPE_KEYS = ['repo', 'project', 'scope'] as const;

/**
 * Runs tool `name` with `repo` / `project` / `scope` narrowing (unless the tool takes those
 * arguments itself): one repository in scope → the call runs there; several → it runs on each
 * and the answers are merged (`results` lists concatenated with a `repo` field and re-ranked by
 * `score`; anything else returned per repository). Without narrowing it is `callTool`.
 */
export async function callScoped(ctx: ToolContext, name: string, rawArgs: unknown, tools: readonly ToolDef[]): Promise<unknown> {
  const { callTool, ToolCallError } = await dispatch();
  const tool = tools.find((t) => t.name === name);
  const args = rawArgs !== null && typeof rawArgs === 'object' && !Array.isArray(rawArgs) ? { ...(rawArgs as Record<string, unknown>) } : rawArgs;
  if (!tool || typeof args !== 'object' || args === null) return callTool(ctx, name, rawArgs, tools);
  const own = new Set(Object.keys(tool.input));
  const sel: { repo?: string; project?: string; scope?: string } = {};
  for (const key of SCOPE_KEYS) {
    const value = (args as Record<string, unknown>)[key];
    if (value === undefined) continue;
    // A tool's own argument of the same name keeps every value it accepts (search_symbols' path
    // prefixes, analyze's cycle scope); a string it rejects names a saved scope.
    if (own.has(key) && (typeof value !== 'string' || (tool.input[key] as z.ZodType).safeParse(value).success)) continue;
    if (typeof value !== 'string' || value === '') throw new ToolCallError('invalid_argument', `${key} must be a non-empty string (a repository name, project or saved scope)`);
    sel[key] = value;
    delete (args as Record<string, unknown>)[key];
  }
  // Multi-repo tools, tool discovery and session tools are about the session, not a repository.
  const narrowable = tool.category !== 'admin' && !own.has('repo') && !own.has('project');
  if (!ctx.workspace || !narrowable) {
    if (ctx.workspace === undefined && (sel.project !== undefined || sel.scope !== undefined)) {
      throw new ToolCallError('not_available', 'project and scope narrowing need a served session with a workspace (gortex mcp, the daemon or HTTP)');
    }
    return callTool(ctx, name, args, tools);
  }
  let names: string[] | undefined;
  try {
    names = targets(ctx.workspace, ctx, sel);
  } catch (error) {
    if (error instanceof ToolInputError) throw new ToolCallError(error.code, error.message);
    throw error;
  }
  if (names === undefined) return withCrossRepo(ctx, name, await callTool(ctx, name, args, tools));
  const ws = ctx.workspace;
  const contextFor = async (repo: string): Promise<ToolContext> => ({ ...(await ws.contextOf(repo)), ...(ctx.session ? { session: ctx.session } : {}), workspace: ws });
  if (names.length === 1) {
    const single = await contextFor(names[0]!);
    return withCrossRepo(single, name, await callTool(single, name, args, tools));
  }
  const answers = await Promise.all(
    names.map(async (repo) => {
      try {
        return { repo, result: await callTool(await contextFor(repo), name, args, tools) };
      } catch (error) {
        return { repo, error: error instanceof ToolCallError ? { code: error.code, message: error.message } : { code: 'internal', message: String(error) } };
      }
    }),
  );
  return mergeAnswers(answers, (args as Record<string, unknown>).limit);
}

/** Tools whose answers list references to a target, and the list other repositories' references join. */
const CROSS_LISTS: Record<string, 'callers' | 'usages'> = { get_callers: 'callers', find_usages: 'usages' };

/**
 * Adds the references other repositories of the workspace make to the answer's target (rows with
 * `repo` and `cross_repo: true`), counted in `cross_repo_refs`. Other answers pass unchanged.
 */
function withCrossRepo(ctx: ToolContext, name: string, answer: unknown): unknown {
  const list = CROSS_LISTS[name];
  const edges = list && ctx.workspace?.crossEdges ? ctx.workspace.crossEdges() : undefined;
  if (!list || !edges || edges.length === 0 || answer === null || typeof answer !== 'object') return answer;
  const result = answer as { target?: { id?: string }; total?: number } & Record<string, unknown>;
  const targetId = result.target?.id;
  const incoming = edges.filter((e) => e.to === targetId && (list === 'usages' || e.kind === 'calls' || e.kind === 'instantiates'));
  if (targetId === undefined || incoming.length === 0 || !Array.isArray(result[list])) return answer;
  const summary = (e: CrossEdge): Record<string, unknown> => ({ id: e.from, kind: e.from_kind, name: e.from_name.split('.').pop(), qualified: e.from_name, path: e.path });
  const rows =
    list === 'callers'
      ? incoming.map((e) => ({ caller: summary(e), kind: e.kind, origin: e.origin, path: e.path, lines: [e.line], depth: 1, repo: e.from_repo, cross_repo: true }))
      : incoming.map((e) => ({ from: summary(e), kind: e.kind, context: e.kind, origin: e.origin, path: e.path, line: e.line, repo: e.from_repo, cross_repo: true }));
  return { ...result, [list]: [...(result[list] as unknown[]), ...rows], total: (result.total ?? 0) + rows.length, cross_repo_refs: rows.length };
}

/** Merges per-repository answers (see `callScoped`). */
function mergeAnswers(answers: { repo: string; result?: unknown; error?: { code: string; message: string } }[], limit: unknown): unknown {
  const ok = answers.filter((a) => a.error === undefined);
  const errors = answers.filter((a) => a.error !== undefined).map((a) => ({ repo: a.repo, ...a.error! }));
  const listOf = (result: unknown): unknown[] | undefined => {
    const r = result as { results?: unknown } | null;
    return r !== null && typeof r === 'object' && Array.isArray(r.results) ? r.results : undefined;
  };
  if (ok.length > 0 && ok.every((a) => listOf(a.result) !== undefined)) {
    let rows = ok.flatMap((a) => listOf(a.result)!.map((row) => (row !== null && typeof row === 'object' ? { repo: a.repo, ...(row as object) } : { repo: a.repo, value: row })));
    if (rows.every((r) => typeof (r as { score?: unknown }).score === 'number')) {
      rows = rows.sort((a, b) => (b as unknown as { score: number }).score - (a as unknown as { score: number }).score);
    }
    const cap = typeof limit === 'number' && limit > 0 ? limit : undefined;
    const total = rows.length;
    if (cap !== undefined) rows = rows.slice(0, cap);
    return { results: rows, total, truncated: rows.length < total, scope_applied: `repos:${answers.length}`, repos: answers.map((a) => a.repo), ...(errors.length > 0 ? { errors } : {}) };
  }
  return { scope_applied: `repos:${answers.length}`, per_repo: ok.map((a) => ({ repo: a.repo, result: a.result })), ...(errors.length > 0 ? { errors } : {}) };
}

/** When a `since` argument means: epoch ms, an ISO time, or a duration back from now (`10m`, `2h`, `1d`). */
function sinceMs(value: string | number | undefined, now: number): number {
  if (value === undefined) return now - 60 * 60_000;
  if (typeof value === 'number') return value;
  const duration = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(value.trim());
  if (duration) return now - Number(duration[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 's' | 'm' | 'h' | 'd'];
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new ToolInputError('invalid_argument', `since must be epoch milliseconds, an ISO time or a duration like 10m / 2h / 1d, got ${JSON.stringify(value)}`);
  return parsed;
}

/** Cross-repository edges counted per (from, to) pair, with a few examples. */
function crossSummary(ws: Workspace): { edges: number; pairs: { from: string; to: string; edges: number; examples: string[] }[] } | null {
  if (!ws.crossEdges) return null;
  const edges = ws.crossEdges();
  const pairs = new Map<string, { from: string; to: string; edges: number; examples: string[] }>();
  for (const e of edges) {
    const key = `${e.from_repo}\0${e.to_repo}`;
    const pair = pairs.get(key) ?? { from: e.from_repo, to: e.to_repo, edges: 0, examples: [] };
    pair.edges++;
    if (pair.examples.length < 5) pair.examples.push(`${e.from_name} -${e.kind}-> ${e.to_repo}:${e.to_name}`);
    pairs.set(key, pair);
  }
  return { edges: edges.length, pairs: [...pairs.values()] };
}

/** The multi-repo tools. */
export const workspaceTools: readonly ToolDef[] = [
  defineTool({
    name: 'list_repos',
    category: 'admin',
    effect: 'read',
    description: 'Every repository this session can reach, grouped by project, with its warm-up phase and size, plus the active project and saved scopes.',
    input: {},
    handler: (ctx) => {
      const ws = workspaceOf(ctx);
      const repos = ws.repos();
      const projects: Record<string, string[]> = {};
      for (const r of repos) if (r.project) (projects[r.project] ??= []).push(r.name);
      for (const list of Object.values(projects)) list.sort();
      return { mode: ws.mode, repos, projects, active_project: ctx.session?.store?.activeProject ?? null, scopes: Object.keys(ws.scopes.list()) };
    },
  }),
  defineTool({
    name: 'workspace_info',
    category: 'admin',
    effect: 'read',
    description: 'Which workspace this session is bound to: mode (daemon or embedded), the repository it was opened in, the member repositories and projects, the active project.',
    input: {},
    handler: (ctx) => {
      const ws = workspaceOf(ctx);
      const repos = ws.repos();
      return {
        mode: ws.mode,
        root: ctx.root,
        repo: repos.find((r) => r.root === ctx.root)?.name ?? null,
        members: repos.map((r) => ({ name: r.name, root: r.root, project: r.project, phase: r.phase })),
        projects: [...new Set(repos.flatMap((r) => (r.project ? [r.project] : [])))].sort(),
        active_project: ctx.session?.store?.activeProject ?? null,
        cross_repo: crossSummary(ws),
      };
    },
  }),
  defineTool({
    name: 'track_repository',
    category: 'admin',
    effect: 'control_write',
    description: 'Start serving another repository: indexes it now (answers when it is queryable), watches it, and remembers it across daemon restarts.',
    input: {
      path: z.string().min(1).describe('A folder inside the repository (absolute, or relative to the session repository)'),
      name: z.string().min(1).optional().describe('Name to serve it under (default: its folder name)'),
      project: z.string().min(1).optional().describe('Project it belongs to'),
    },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      const dir = path.resolve(ctx.root, args.path);
      try {
        return { tracked: await ws.track(dir, { ...(args.name ? { name: args.name } : {}), ...(args.project ? { project: args.project } : {}) }) };
      } catch (error) {
        if (error instanceof ToolInputError) throw error;
        throw new ToolInputError((error as Error).name === 'TrackConflictError' || (error as Error).name === 'CliUsageError' ? 'invalid_argument' : 'internal', (error as Error).message);
      }
    },
  }),
  defineTool({
    name: 'untrack_repository',
    category: 'admin',
    effect: 'control_write',
    description: 'Stop serving a repository (by name, root or path prefix); its snapshot stays on disk.',
    input: { path_or_name: z.string().min(1).describe('Name, root path or path prefix') },
    handler: (ctx, args) => {
      const ws = workspaceOf(ctx);
      try {
        return { untracked: ws.untrack(args.path_or_name) };
      } catch (error) {
        if (error instanceof ToolInputError) throw error;
        throw new ToolInputError((error as Error).name === 'NotTrackedError' ? 'not_found' : 'internal', (error as Error).message);
      }
    },
  }),
  defineTool({
    name: 'reindex_repository',
    category: 'admin',
    effect: 'control_write',
    description: 'Re-scan a repository now (incrementally: only changed files are parsed) instead of waiting for the watcher. Default: the session repository.',
    input: { repo: z.string().min(1).optional().describe('Repository name or root (default: the session repository)') },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      const target = args.repo ?? ctx.root;
      if (ws.mode === 'embedded') {
        await ws.contextOf(target);
        const report = await ctx.engine.indexRepo(ctx.root);
        return { repo: report.repo, mode: report.mode, files: report.files, wall_ms: report.wall_ms };
      }
      const report = await ws.reindex(target);
      if (!report) throw new ToolInputError('not_found', `repository "${target}" is not ready`);
      return { repo: report.repo, mode: report.mode, files: report.files, wall_ms: report.wall_ms };
    },
  }),
  defineTool({
    name: 'set_active_project',
    category: 'admin',
    effect: 'session_write',
    description: "Narrow every later query of this session to one project's repositories (results name their repo); an empty project clears it.",
    input: { project: z.string().describe('Project name, or "" to clear') },
    handler: (ctx, args) => {
      const ws = workspaceOf(ctx);
      const store = ctx.session?.store;
      if (!store) throw new ToolInputError('unavailable', 'set_active_project needs an MCP session');
      if (args.project === '') {
        store.activeProject = undefined;
        return { active_project: null };
      }
      const members = ws.repos().filter((r) => r.project === args.project).map((r) => r.name);
      if (members.length === 0) {
        const projects = [...new Set(ws.repos().flatMap((r) => (r.project ? [r.project] : [])))];
        throw new ToolInputError('not_found', `no repository belongs to project "${args.project}"; projects: ${projects.join(', ') || 'none (track with --project)'}`);
      }
      store.activeProject = args.project;
      return { active_project: args.project, repos: members };
    },
  }),
  defineTool({
    name: 'get_active_project',
    category: 'admin',
    effect: 'read',
    description: "The session's active project and its repositories (null when queries are not narrowed).",
    input: {},
    handler: (ctx) => {
      const ws = workspaceOf(ctx);
      const project = ctx.session?.store?.activeProject ?? null;
      return { active_project: project, repos: project === null ? [] : ws.repos().filter((r) => r.project === project).map((r) => r.name) };
    },
  }),
  defineTool({
    name: 'query_project',
    category: 'admin',
    effect: 'read',
    description: 'Search symbols in another project or repository without switching the active project: search_symbols run on each of its repositories, merged by score.',
    input: {
      query: z.string().min(1).describe('What to search for, as for search_symbols'),
      project: z.string().min(1).optional().describe('Project to search'),
      repo: z.string().min(1).optional().describe('Repository to search (name or root)'),
      limit: z.number().int().min(1).max(200).optional().describe('Most rows (default 20)'),
    },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      if ((args.project === undefined) === (args.repo === undefined)) throw new ToolInputError('invalid_argument', 'give exactly one of project or repo');
      const { ALL_TOOLS } = await import('./index');
      const { ToolCallError } = await dispatch();
      return callScoped(ctx, 'search_symbols', { query: args.query, limit: args.limit ?? 20, ...(args.project ? { project: args.project } : { repo: args.repo }) }, ALL_TOOLS).catch((error: unknown) => {
        if (error instanceof ToolCallError) throw new ToolInputError(error.code, error.message);
        throw error;
      }).then((result) => ({ ...(result as object), searched: args.project ? { project: args.project } : { repo: args.repo }, mode: ws.mode }));
    },
  }),
  defineTool({
    name: 'save_scope',
    category: 'admin',
    effect: 'session_write',
    description: 'Save a named set of repositories; any query tool then takes scope: NAME to run on just those (results name their repo).',
    input: {
      name: z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - (at most 64)').describe('Scope name'),
      repos: z.array(z.string().min(1)).min(1).describe('Repository names or roots'),
    },
    handler: (ctx, args) => {
      const ws = workspaceOf(ctx);
      const repos = ws.repos();
      const names = args.repos.map((n) => {
        const found = repos.find((r) => r.name === n || r.root === n);
        if (!found) throw new ToolInputError('not_found', `repository "${n}" is not in this workspace; repositories: ${repos.map((r) => r.name).join(', ')}`);
        return found.name;
      });
      ws.scopes.save(args.name, [...new Set(names)]);
      return { saved: args.name, repos: [...new Set(names)] };
    },
  }),
  defineTool({
    name: 'list_scopes',
    category: 'admin',
    effect: 'read',
    description: 'Every saved repository scope with its repositories.',
    input: {},
    handler: (ctx) => ({ scopes: Object.entries(workspaceOf(ctx).scopes.list()).map(([name, s]) => ({ name, repos: s.repos, created_at: s.created_at })) }),
  }),
  defineTool({
    name: 'delete_scope',
    category: 'admin',
    effect: 'session_write',
    description: 'Delete a saved repository scope by name.',
    input: { name: z.string().min(1).describe('Scope name') },
    handler: (ctx, args) => {
      const ws = workspaceOf(ctx);
      if (!ws.scopes.delete(args.name)) throw new ToolInputError('not_found', `no saved scope "${args.name}"; scopes: ${Object.keys(ws.scopes.list()).join(', ') || 'none'}`);
      return { deleted: args.name };
    },
  }),
  defineTool({
    name: 'get_recent_changes',
    category: 'nav',
    effect: 'read',
    description: 'Files the watchers re-indexed since a time (default: the last hour), newest first, each with its repository and the symbols it now declares.',
    input: {
      since: z.union([z.string(), z.number()]).optional().describe('Epoch ms, an ISO time, or a duration back from now such as 10m, 2h, 1d (default 1h)'),
      repo: z.string().min(1).optional().describe('Only this repository (name or root)'),
      limit: z.number().int().min(1).max(1000).optional().describe('Most files (default 100)'),
    },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      const now = Date.now();
      const from = sinceMs(args.since, now);
      let rows = ws.changes(from);
      if (args.repo !== undefined) {
        const found = ws.repos().find((r) => r.name === args.repo || r.root === args.repo);
        if (!found) throw new ToolInputError('not_found', `repository "${args.repo}" is not in this workspace; repositories: ${ws.repos().map((r) => r.name).join(', ')}`);
        rows = rows.filter((r) => r.repo === found.name);
      }
      const limit = args.limit ?? 100;
      const total = rows.length;
      const out = [];
      for (const r of rows.slice(0, limit)) {
        let symbols: string[] = [];
        let exists = true;
        try {
          const c = await ws.contextOf(r.repo);
          symbols = c.engine.fileSymbols(c.repo, r.path).filter((n) => n.kind !== 'file' && n.kind !== 'import').slice(0, 20).map((n) => n.qualified);
        } catch {
          exists = false;
        }
        out.push({ repo: r.repo, path: r.path, at: new Date(r.at).toISOString(), exists, symbols });
      }
      return { since: new Date(from).toISOString(), changes: out, total, truncated: out.length < total };
    },
  }),
] as ToolDef[];
