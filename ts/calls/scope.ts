/**
 * The scope stage: \`repo\` / \`project\` / \`scope\` narrowing for every tool, by running it on each
 * repository in scope and merging the answers, plus the references other repositories of the
 * workspace make to an answer's target.
 */
import type { z } from 'zod';
import { ALL_TOOLS, isSessionLevel, ToolInputError, type ToolDef } from '../tools/index';
import type { ToolContext } from '../workspace/context';
import type { CrossEdge } from '../workspace/cross-repo';
import { throughOverlay } from '../workspace/overlays';
import type { Workspace } from '../workspace/workspace';
import { callTool, ToolCallError } from './dispatch';

/** The names a scope clause selects: `repo`, a saved `scope`, or a `project` (explicit or the session's active one). */
function targets(ws: Workspace, ctx: ToolContext, sel: { repo?: string | undefined; project?: string | undefined; scope?: string | undefined }, args: Record<string, unknown>): string[] | undefined {
  const project = sel.project ?? ctx.session?.store?.activeProject;
  const bound = ctx.spans ?? ctx.session?.store?.boundRepos;
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
  // A session opened at a folder holding several tracked repositories spans all of them — but a
  // call about given symbols runs only where those ids live.
  const served = bound?.filter((n) => repos.some((r) => r.name === n));
  if (served && served.length > 1) {
    const owner = ownerOfIds(served, args);
    return owner !== undefined ? [owner] : served;
  }
  return undefined;
}

/** Arguments that name graph nodes by id. */
const ID_ARGS = ['id', 'ids', 'from', 'to'] as const;

/**
 * The one repository of `names` every node id among the arguments belongs to (ids start with
 * `<repository>/`), or undefined when they name none, several, or ids of no repository in `names`.
 */
function ownerOfIds(names: readonly string[], args: Record<string, unknown>): string | undefined {
  const ids: string[] = [];
  for (const key of ID_ARGS) {
    const value = args[key];
    if (typeof value === 'string') ids.push(value);
    else if (Array.isArray(value)) ids.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  if (ids.length === 0) return undefined;
  // The longest name first: a repository `app` must not claim the ids of `app/web`.
  const byLength = [...names].sort((a, b) => b.length - a.length);
  const owners = new Set(ids.map((id) => byLength.find((n) => id.startsWith(`${n}/`))));
  if (owners.size !== 1) return undefined;
  return [...owners][0];
}

/** `ctx` with `call` running other registry tools through this stage and dispatch, from `ctx` itself. */
export function withCalls(ctx: ToolContext): ToolContext {
  const bound: ToolContext = { ...ctx };
  bound.call = (tool, args) => callScoped(bound, tool, args, ALL_TOOLS);
  return bound;
}

const SCOPE_KEYS = ['repo', 'project', 'scope'] as const;

/**
 * Runs tool `name` with `repo` / `project` / `scope` narrowing (unless the tool takes those
 * arguments itself): one repository in scope → the call runs there; several → it runs on each
 * and the answers are merged (`results` lists concatenated with a `repo` field and re-ranked by
 * `score`; anything else returned per repository). Without narrowing it is `callTool`.
 */
export async function callScoped(ctx: ToolContext, name: string, rawArgs: unknown, tools: readonly ToolDef[]): Promise<unknown> {
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
  const narrowable = !isSessionLevel(tool) && !own.has('repo') && !own.has('project');
  if (!ctx.workspace || !narrowable) {
    if (ctx.workspace === undefined && (sel.project !== undefined || sel.scope !== undefined)) {
      throw new ToolCallError('not_available', 'project and scope narrowing need a served session with a workspace (gortex mcp, the daemon or HTTP)');
    }
    return callTool(ctx, name, args, tools);
  }
  let names: string[] | undefined;
  try {
    names = targets(ctx.workspace, ctx, sel, args as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ToolInputError) throw new ToolCallError(error.code, error.message);
    throw error;
  }
  if (names === undefined) return withCrossRepo(ctx, name, await callTool(ctx, name, args, tools));
  const ws = ctx.workspace;
  const contextFor = async (repo: string): Promise<ToolContext> =>
    withCalls(
      await (tool.category === 'overlay' ? (c: ToolContext) => Promise.resolve(c) : throughOverlay)({
        ...(await ws.contextOf(repo)),
        ...(ctx.session ? { session: ctx.session } : {}),
        ...(ctx.progress ? { progress: ctx.progress } : {}),
        // The caller's trust and overlay follow it into every repository it reaches.
        ...(ctx.trust ? { trust: ctx.trust } : {}),
        ...(ctx.overlay ? { overlay: { store: ctx.overlay.store, session: ctx.overlay.session } } : {}),
        workspace: ws,
      }),
    );
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
  // The node shape, as far as a cross edge knows the node (not its lines).
  const summary = (e: CrossEdge): Record<string, unknown> => ({ id: e.from, kind: e.from_kind, name: e.from_name.split('.').pop(), qual_name: e.from_name, file_path: e.path, repo_prefix: e.from_repo });
  if (list === 'callers') {
    const rows = incoming.map((e) => ({ caller: summary(e), kind: e.kind, origin: e.origin, path: e.path, lines: [e.line], depth: 1, repo: e.from_repo, cross_repo: true }));
    return { ...result, callers: [...(result.callers as unknown[]), ...rows], total: (result.total ?? 0) + rows.length, cross_repo_refs: rows.length };
  }
  // find_usages rows name their user by id; the node joins `nodes` once.
  const nodes = Array.isArray(result.nodes) ? [...(result.nodes as { id?: string }[])] : [];
  const known = new Set(nodes.map((n) => n.id));
  for (const e of incoming) {
    if (known.has(e.from)) continue;
    known.add(e.from);
    nodes.push(summary(e));
  }
  const rows = incoming.map((e) => ({ from: e.from, kind: e.kind, context: e.kind, origin: e.origin, path: e.path, line: e.line, repo: e.from_repo, cross_repo: true }));
  return { ...result, nodes, usages: [...(result.usages as unknown[]), ...rows], total: (result.total ?? 0) + rows.length, cross_repo_refs: rows.length };
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
