/**
 * The multi-repo tools over the session's `Workspace` (`ts/workspace/workspace.ts`):
 * `track_repository`, `list_repos`, `set_active_project`, `query_project`, saved scopes,
 * `reindex_repository`, `get_recent_changes`, …
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Workspace } from '../workspace/workspace';
import { callAnother, defineTool, ToolInputError, type ToolDef } from './registry';
import { type ToolContext } from '../workspace/context';

/** The session's workspace, or a refusal. */
function workspaceOf(ctx: ToolContext): Workspace {
  if (!ctx.workspace) throw new ToolInputError('unavailable', 'this tool needs a served session (gortex mcp, the daemon or HTTP); gortex call has one repository only');
  return ctx.workspace;
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
    category: 'workspace',
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
    category: 'workspace',
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
    category: 'workspace',
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
        throw new ToolInputError((error as Error).name === 'TrackConflictError' || (error as Error).name === 'UsageError' ? 'invalid_argument' : 'internal', (error as Error).message);
      }
    },
  }),
  defineTool({
    name: 'untrack_repository',
    category: 'workspace',
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
    category: 'workspace',
    effect: 'control_write',
    description: 'Re-scan a repository now (incrementally: only changed files are parsed) instead of waiting for the watcher. Default: the session repository.',
    input: { repo: z.string().min(1).optional().describe('Repository name or root (default: the session repository)') },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      const target = args.repo ?? ctx.root;
      // Embedded workspaces without a queue of their own (tests' hosts) index directly.
      const report = (await ws.reindex(target)) ?? (ws.mode === 'embedded' ? await ctx.engine.indexRepo(ctx.root) : undefined);
      if (!report) throw new ToolInputError('not_found', `repository "${target}" is not ready`);
      return { repo: report.repo, mode: report.mode, files: report.files, wall_ms: report.wall_ms };
    },
  }),
  defineTool({
    name: 'index_repository',
    category: 'workspace',
    effect: 'control_write',
    description:
      'Index a repository now: one this server serves (the session repository by default) is re-scanned; another folder is tracked — indexed, watched and remembered — when the daemon serves this session.',
    input: { path: z.string().min(1).optional().describe('A folder inside the repository (absolute, or relative to the session repository); default the session repository') },
    handler: async (ctx, args) => {
      const ws = workspaceOf(ctx);
      let dir = path.resolve(ctx.root, args.path ?? '.');
      try {
        dir = fs.realpathSync(dir);
      } catch {
        throw new ToolInputError('not_found', `${dir} does not exist`);
      }
      const served = ws.repos().find((r) => dir === r.root || dir.startsWith(r.root + path.sep));
      if (served) return { action: 'reindexed', ...((await callAnother(ctx, 'reindex_repository', { repo: served.root })) as object) };
      return { action: 'tracked', ...((await callAnother(ctx, 'track_repository', { path: dir })) as object) };
    },
  }),
  defineTool({
    name: 'set_active_project',
    category: 'workspace',
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
    category: 'workspace',
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
    category: 'workspace',
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
      const result = await callAnother(ctx, 'search_symbols', { query: args.query, limit: args.limit ?? 20, ...(args.project ? { project: args.project } : { repo: args.repo }) });
      return { ...(result as object), searched: args.project ? { project: args.project } : { repo: args.repo }, mode: ws.mode };
    },
  }),
  defineTool({
    name: 'save_scope',
    category: 'workspace',
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
    category: 'workspace',
    effect: 'read',
    description: 'Every saved repository scope with its repositories.',
    input: {},
    handler: (ctx) => ({ scopes: Object.entries(workspaceOf(ctx).scopes.list()).map(([name, s]) => ({ name, repos: s.repos, created_at: s.created_at })) }),
  }),
  defineTool({
    name: 'delete_scope',
    category: 'workspace',
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
