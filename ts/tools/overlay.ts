/**
 * Overlay tools: live editor buffers and branches of speculative work, per session
 * (`ts/workspace/overlays.ts` holds the sessions; the call pipeline reads every other tool's call
 * through the session's active branch). Compare tools run one of five graph questions on two
 * sides and report what the overlay added, removed and kept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Engine } from '../engine/engine';
import type { ToolContext } from '../workspace/context';
import { MAIN_BRANCH, overlayRel, type OverlayBranch, type OverlayFile, type OverlaySession, type OverlayStore } from '../workspace/overlays';
import { blobSha, checkBase, commitWrites, MAX_WRITE_BYTES, resolveWritable, type PlannedWrite, type WrittenFile } from '../workspace/writes';
import { defineTool, ToolInputError, type ToolDef } from './registry';

/** The graph questions the compare tools ask on both sides. */
export const COMPARE_TOOLS = ['find_usages', 'get_callers', 'get_call_chain', 'get_dependencies', 'get_dependents'] as const;
type CompareTool = (typeof COMPARE_TOOLS)[number];

/** Branch names: short, printable, no path or key separators. */
const branchName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a branch name is 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit');

/** The caller's overlay store and session id, or why this door has none. */
function bindingOf(ctx: ToolContext): { store: OverlayStore; id: string } {
  if (!ctx.overlay) {
    throw new ToolInputError(
      'not_available',
      'overlays belong to a session: call this over MCP (stdio, the daemon socket or /mcp), or over /v1 with an Mcp-Session-Id or X-Gortex-Overlay-Session header (or ?session_id=)',
    );
  }
  return { store: ctx.overlay.store, id: ctx.overlay.session };
}

function branchOf(session: OverlaySession, name: string | undefined): OverlayBranch {
  const wanted = name ?? session.active;
  const branch = session.branches.get(wanted);
  if (!branch) throw new ToolInputError('not_found', `no branch ${JSON.stringify(wanted)} in this overlay session; it has ${[...session.branches.keys()].join(', ')}`);
  return branch;
}

/** Where a pushed path lives: the session's repository, or (absolute paths) another of its workspace. */
export function locate(ctx: ToolContext, raw: string): { root: string; rel: string; abs: string } {
  if (raw.trim() === '') throw new ToolInputError('invalid_argument', 'path must not be empty');
  if (raw.includes('\0')) throw new ToolInputError('invalid_argument', 'path must not contain a NUL byte');
  const roots = [ctx.root, ...(ctx.workspace?.repos().map((r) => r.root) ?? [])];
  const abs = path.resolve(ctx.root, raw);
  const root = roots
    .filter((r) => abs === r || abs.startsWith(r + path.sep))
    .sort((a, b) => b.length - a.length)[0];
  if (root === undefined || abs === root) {
    throw new ToolInputError('outside_repo', `${JSON.stringify(raw)} is not a file inside a served repository (${ctx.root}${roots.length > 1 ? ' and the workspace' : ''}); paths are relative to ${ctx.root}`);
  }
  const rel = overlayRel(path.relative(root, abs));
  if (rel.split('/')[0] === '.git') throw new ToolInputError('invalid_argument', `${JSON.stringify(raw)} is inside .git/`);
  return { root, rel, abs };
}

function fileRow(f: OverlayFile, ctx: ToolContext): Record<string, unknown> {
  return {
    path: f.root === ctx.root ? f.rel : f.abs,
    size: f.content?.length ?? 0,
    deleted: f.content === null,
    ...(f.base_sha ? { base_sha: f.base_sha } : {}),
    sha: f.content === null ? null : blobSha(f.content),
    updated_at: new Date(f.updated_at).toISOString(),
  };
}

function branchRow(session: OverlaySession, b: OverlayBranch): Record<string, unknown> {
  return {
    name: b.name,
    active: session.active === b.name,
    files: b.files.size,
    base_sha_anchors: [...b.files.values()].filter((f) => f.base_sha).length,
    ...(b.parent ? { parent: b.parent } : {}),
    created_at: new Date(b.created_at).toISOString(),
  };
}

function sessionRow(store: OverlayStore, session: OverlaySession): Record<string, unknown> {
  return {
    session_id: session.id,
    active_branch: session.active,
    branches: [...session.branches.keys()],
    idle_ttl_seconds: Math.round(store.ttlMs / 1000),
    expires_at: new Date(session.last_used + store.ttlMs).toISOString(),
  };
}

/** Node ids in an answer of one of the compare tools (the rows, not the target). */
function idsOf(tool: CompareTool, answer: unknown): string[] {
  const a = answer as { usages?: { from?: string }[]; callers?: { caller?: { id?: string } }[]; nodes?: { id?: string; node?: { id?: string } }[] };
  // Usage rows name their user by id (`from`); dependency rows are the nodes themselves.
  const found: unknown[] = {
    find_usages: () => (a.usages ?? []).map((r) => r.from),
    get_callers: () => (a.callers ?? []).map((r) => r.caller?.id),
    get_call_chain: () => (a.nodes ?? []).map((r) => r.node?.id),
    get_dependencies: () => (a.nodes ?? []).map((r) => r.id),
    get_dependents: () => (a.nodes ?? []).map((r) => r.id),
  }[tool]();
  const ids = found.filter((id): id is string => typeof id === 'string');
  return [...new Set(ids)].sort();
}

/** Runs a compare tool on one side; a target the side lacks answers as an error, not a throw. */
function ask(engine: Engine, ctx: ToolContext, tool: CompareTool, args: Record<string, unknown>): { ids: string[]; total?: number; error?: { code: string; message: string } } {
  try {
    const answer = engine.query(tool, args, { repo: ctx.repo });
    return { ids: idsOf(tool, answer), total: (answer as { total?: number }).total };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === 'invalid_argument') throw new ToolInputError('invalid_argument', `${tool}: ${e.message}`);
    return { ids: [], error: { code: e.code ?? 'internal', message: e.message ?? String(error) } };
  }
}

/** Two sides' answers as added / removed / common id sets. */
function delta(before: ReturnType<typeof ask>, after: ReturnType<typeof ask>): Record<string, unknown> {
  const b = new Set(before.ids);
  const a = new Set(after.ids);
  return {
    added: after.ids.filter((id) => !b.has(id)),
    removed: before.ids.filter((id) => !a.has(id)),
    common: after.ids.filter((id) => b.has(id)),
  };
}

/** The engine a branch's view shows for `ctx`'s repository (the base when the branch overlays none of its files). */
async function engineOn(ctx: ToolContext, store: OverlayStore, session: OverlaySession, branch: string): Promise<Engine> {
  const base = ctx.overlay?.baseEngine ?? ctx.engine;
  const view = await store.view({ ...ctx, engine: base }, session, branch);
  return view?.engine ?? base;
}

const compareInput = {
  tool: z.enum(COMPARE_TOOLS).describe('The graph question to ask on both sides'),
  args: z.record(z.string(), z.unknown()).describe('Its arguments, e.g. {"id": "src/a.ts::parse"}; the target must exist on at least one side'),
};

/** Writes a branch's files to disk through the guarded write path; returns what was written. */
async function mergeToDisk(ctx: ToolContext, branch: OverlayBranch, force: boolean, dryRun: boolean): Promise<WrittenFile[]> {
  const byRoot = new Map<string, OverlayFile[]>();
  for (const f of branch.files.values()) byRoot.set(f.root, [...(byRoot.get(f.root) ?? []), f]);
  const written: WrittenFile[] = [];
  for (const [root, files] of byRoot) {
    const target = root === ctx.root ? ctx : await ctx.workspace!.contextOf(root);
    const plans: PlannedWrite[] = files.map((f) => {
      const t = resolveWritable(root, f.rel, { create: true });
      if (f.content !== null && f.content.length > MAX_WRITE_BYTES) throw new ToolInputError('invalid_argument', `${f.rel} is larger than ${MAX_WRITE_BYTES} bytes`);
      if (!force) checkBase(t, f.base_sha);
      return { target: t, after: f.content };
    });
    written.push(...(await commitWrites(target, plans, { dryRun, allowParseErrors: true })));
  }
  return written;
}

/** The overlay and branch tools. */
export function overlayTools(): ToolDef[] {
  return [
    defineTool({
      name: 'overlay_register',
      category: 'overlay',
      effect: 'session_write',
      description:
        "Binds an overlay session to this MCP session (idempotent): unsaved buffers pushed afterwards are what every later call of the session reads. Returns the session id, active branch, branches and idle TTL.",
      input: {},
      handler: (ctx) => {
        const { store, id } = bindingOf(ctx);
        const { session, created } = store.register(id);
        return { ...sessionRow(store, session), created };
      },
    }),
    defineTool({
      name: 'overlay_push',
      category: 'overlay',
      effect: 'session_write',
      description:
        'Pushes (or updates) one file of the active branch: its unsaved content, or deleted: true to preview a delete. Every later call of the session reads the repository with it. base_sha (the blob sha the buffer started from) is checked against the disk: drift is reported here and refused by overlay_merge to disk.',
      input: {
        path: z.string().describe('Repository-relative path (or absolute inside a served repository)'),
        content: z.string().optional().describe('The buffer (UTF-8); required unless deleted'),
        deleted: z.boolean().optional().describe('Preview the file deleted'),
        base_sha: z.string().regex(/^[0-9a-fA-F]{40}$/, 'base_sha is a 40-character git blob SHA-1').optional().describe('Blob sha of the on-disk content the buffer was based on'),
      },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        if (args.deleted && args.content !== undefined) throw new ToolInputError('invalid_argument', 'pass content or deleted: true, not both');
        if (!args.deleted && args.content === undefined) throw new ToolInputError('invalid_argument', 'content is required (or deleted: true to preview a delete)');
        const content = args.deleted ? null : Buffer.from(args.content!, 'utf8');
        if (content && content.length > MAX_WRITE_BYTES) throw new ToolInputError('invalid_argument', `content is ${content.length} bytes; an overlay file holds at most ${MAX_WRITE_BYTES}`);
        const where = locate(ctx, args.path);
        const { session } = store.register(id);
        const branch = branchOf(session, undefined);
        const file: OverlayFile = { ...where, content, updated_at: Date.now(), ...(args.base_sha ? { base_sha: args.base_sha.toLowerCase() } : {}) };
        branch.files.set(where.abs, file);
        branch.revision++;
        const disk = fs.existsSync(where.abs) && fs.statSync(where.abs).isFile() ? blobSha(fs.readFileSync(where.abs)) : null;
        return {
          ...fileRow(file, ctx),
          branch: branch.name,
          files: branch.files.size,
          on_disk: disk !== null,
          ...(file.base_sha ? { drift: disk !== file.base_sha, disk_sha: disk } : {}),
        };
      },
    }),
    defineTool({
      name: 'overlay_list',
      category: 'overlay',
      effect: 'read',
      description: "Lists every file of the session's active branch (path, size, deleted, base_sha, sha, updated_at) and the session's branches.",
      input: { branch: branchName.optional().describe('Another branch than the active one') },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.get(id);
        if (!session) return { session_id: id, registered: false, files: [], branches: [] };
        const branch = branchOf(session, args.branch);
        const view = store.viewReport(session.id, branch.name, ctx.root);
        return {
          ...sessionRow(store, session),
          registered: true,
          branch: branch.name,
          // The view of this repository, once a call has built it: its size and what building it cost.
          view: view ? { built: true, last: view.mode, nodes: view.nodes, owned_nodes: view.owned_nodes, edges: view.edges, resolved_files: view.resolved_files, layout: view.graph_layout, ...(view.flat_because ? { flat_because: view.flat_because } : {}), build_ms: view.wall_ms, phases_ms: view.phases_ms, not_indexed: view.not_indexed } : { built: false },
          files: [...branch.files.values()].map((f) => fileRow(f, ctx)).sort((a, b) => String(a.path).localeCompare(String(b.path))),
        };
      },
    }),
    defineTool({
      name: 'overlay_delete',
      category: 'overlay',
      effect: 'session_write',
      description: 'Removes one file from the active branch: the session reads it from disk again.',
      input: { path: z.string().describe('The path as pushed') },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const branch = branchOf(store.require(id), undefined);
        const { abs } = locate(ctx, args.path);
        if (!branch.files.delete(abs)) throw new ToolInputError('not_found', `${args.path} is not in branch ${branch.name}; overlay_list shows its files`);
        branch.revision++;
        return { path: args.path, removed: true, branch: branch.name, files: branch.files.size };
      },
    }),
    defineTool({
      name: 'overlay_drop',
      category: 'overlay',
      effect: 'session_write',
      description: "Tears down the session's overlay: every branch, buffer and view is discarded; later calls read the disk.",
      input: {},
      handler: (ctx) => {
        const { store, id } = bindingOf(ctx);
        return { session_id: id, dropped: store.drop(id) };
      },
    }),
    defineTool({
      name: 'overlay_keepalive',
      category: 'overlay',
      effect: 'session_write',
      description: "Refreshes the overlay session's idle timer without re-pushing content (debugger or wizard pauses).",
      input: {},
      handler: (ctx) => {
        const { store, id } = bindingOf(ctx);
        return sessionRow(store, store.require(id));
      },
    }),
    defineTool({
      name: 'compare_with_overlay',
      category: 'overlay',
      effect: 'read',
      description:
        "Asks one graph question (find_usages, get_callers, get_call_chain, get_dependencies or get_dependents) of the repository as indexed and as the session's active branch shows it; returns the ids the overlay added, removed and kept.",
      input: compareInput,
      handler: async (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.require(id);
        const base = ctx.overlay?.baseEngine ?? ctx.engine;
        const before = ask(base, ctx, args.tool, args.args);
        const after = ask(await engineOn(ctx, store, session, session.active), ctx, args.tool, args.args);
        return { tool: args.tool, branch: session.active, ...delta(before, after), base: before, overlay: after };
      },
    }),
    defineTool({
      name: 'overlay_fork',
      category: 'overlay',
      effect: 'session_write',
      description: 'Clones the active (or a named) branch into a new branch, to hold another strategy beside it; activate: true makes the new branch active.',
      input: {
        name: branchName.describe('The new branch'),
        from: branchName.optional().describe('The branch to clone (default: the active one)'),
        activate: z.boolean().optional(),
      },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const { session } = store.register(id);
        if (session.branches.has(args.name)) throw new ToolInputError('invalid_argument', `branch ${args.name} exists already`);
        const from = branchOf(session, args.from);
        const files = new Map([...from.files].map(([k, f]) => [k, { ...f }]));
        session.branches.set(args.name, { name: args.name, parent: from.name, created_at: Date.now(), files, revision: 0 });
        if (args.activate) session.active = args.name;
        return { branch: args.name, parent: from.name, files: files.size, active_branch: session.active };
      },
    }),
    defineTool({
      name: 'overlay_branches',
      category: 'overlay',
      effect: 'read',
      description: "Lists the session's branches: active flag, file count, base_sha anchors, parent and creation time.",
      input: {},
      handler: (ctx) => {
        const { store, id } = bindingOf(ctx);
        const session = store.get(id);
        if (!session) return { session_id: id, registered: false, branches: [] };
        return { session_id: id, registered: true, active_branch: session.active, branches: [...session.branches.values()].map((b) => branchRow(session, b)) };
      },
    }),
    defineTool({
      name: 'overlay_switch',
      category: 'overlay',
      effect: 'session_write',
      description: "Makes another branch the session's active one: later calls read the repository as that branch shows it.",
      input: { branch: branchName },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.require(id);
        const previous = session.active;
        session.active = branchOf(session, args.branch).name;
        return { active_branch: session.active, previous };
      },
    }),
    defineTool({
      name: 'overlay_merge',
      category: 'overlay',
      effect: 'local_write',
      description:
        "Folds a branch (default: the active one) into another (default: main), or with to_disk: true writes its files to the repository through the guarded atomic write path (base_sha drift refused, all files or none; the written files leave the branch). A path both branches hold with different content is refused unless force: true (the merged branch wins).",
      input: {
        branch: branchName.optional().describe('The branch to merge (default: the active one)'),
        into: branchName.optional().describe('The branch to merge into (default: main)'),
        to_disk: z.boolean().optional().describe('Write the branch to the repository instead'),
        force: z.boolean().optional().describe('Overwrite divergent content (and, to disk, ignore base_sha drift)'),
        dry_run: z.boolean().optional().describe('With to_disk: report what would be written, write nothing'),
      },
      handler: async (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.require(id);
        const source = branchOf(session, args.branch);
        if (args.to_disk) {
          if (args.into !== undefined) throw new ToolInputError('invalid_argument', 'pass into (another branch) or to_disk: true, not both');
          if (source.files.size === 0) throw new ToolInputError('invalid_argument', `branch ${source.name} has no files to write`);
          const written = await mergeToDisk(ctx, source, args.force === true, args.dry_run === true);
          if (!args.dry_run) {
            source.files.clear();
            source.revision++;
          }
          return { branch: source.name, to_disk: true, dry_run: args.dry_run === true, files: written };
        }
        const target = branchOf(session, args.into ?? MAIN_BRANCH);
        if (target.name === source.name) throw new ToolInputError('invalid_argument', `cannot merge branch ${source.name} into itself`);
        const conflicts = [...source.files.values()]
          .filter((f) => {
            const other = target.files.get(f.abs);
            return other !== undefined && !(other.content === null ? f.content === null : f.content !== null && other.content.equals(f.content));
          })
          .map((f) => fileRow(f, ctx).path);
        if (conflicts.length > 0 && !args.force) {
          throw new ToolInputError('conflict', `branches ${source.name} and ${target.name} hold different content for ${conflicts.join(', ')}: nothing was merged. Pass force: true to let ${source.name} win`);
        }
        for (const [k, f] of source.files) target.files.set(k, { ...f });
        target.revision++;
        return { branch: source.name, into: target.name, merged: source.files.size, overwritten: conflicts, files: target.files.size };
      },
    }),
    defineTool({
      name: 'overlay_drop_branch',
      category: 'overlay',
      effect: 'session_write',
      description: 'Deletes a branch and its buffers; never the active branch or main.',
      input: { branch: branchName },
      handler: (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.require(id);
        const branch = branchOf(session, args.branch);
        if (branch.name === MAIN_BRANCH) throw new ToolInputError('invalid_argument', 'main is the implicit branch every session keeps; it cannot be dropped (overlay_drop ends the whole session)');
        if (branch.name === session.active) throw new ToolInputError('invalid_argument', `${branch.name} is the active branch: overlay_switch to another first`);
        store.dropViews(session.id, branch.name);
        session.branches.delete(branch.name);
        return { dropped: branch.name, branches: [...session.branches.keys()] };
      },
    }),
    defineTool({
      name: 'compare_branches',
      category: 'overlay',
      effect: 'read',
      description:
        'Asks one graph question (find_usages, get_callers, get_call_chain, get_dependencies or get_dependents) of two branches of the session and reports each side and the delta (added / removed / common from a to b).',
      input: {
        ...compareInput,
        a: branchName.optional().describe('First branch (default: main)'),
        b: branchName.describe('Second branch'),
      },
      handler: async (ctx, args) => {
        const { store, id } = bindingOf(ctx);
        const session = store.require(id);
        const [a, b] = [branchOf(session, args.a ?? MAIN_BRANCH).name, branchOf(session, args.b).name];
        const left = ask(await engineOn(ctx, store, session, a), ctx, args.tool, args.args);
        const right = ask(await engineOn(ctx, store, session, b), ctx, args.tool, args.args);
        return { tool: args.tool, a, b, ...delta(left, right), a_side: left, b_side: right };
      },
    }),
  ] as unknown as ToolDef[];
}
