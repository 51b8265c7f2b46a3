/**
 * Speculative execution: `preview_edit` and `simulate_chain` answer "what would this LSP
 * `WorkspaceEdit` change?" without touching the disk or the base graph. The edit is applied to
 * the files in memory, a throwaway overlay view is built from the result (`ts/workspace/overlays.ts`),
 * and the graph before and after are compared: touched files, added / removed / renamed symbols,
 * changed signatures, callers the change breaks, implementors of a changed interface, the blast
 * radius, the tests to run, the syntax errors each file gained (tree-sitter), and the language
 * servers' diagnostics the edit adds or clears in the touched files and those of the callers it may
 * break (`diagnostics-delta.ts`: the states are lent to the servers as buffers and put back after).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { syntaxCheck, type Engine, type GetCallChainResult, type GetCallersResult, type GetDependentsResult, type FindImplementationsResult, type NodeJson } from '../engine/engine';
import type { ToolContext } from '../workspace/context';
import { MAIN_BRANCH, overlayRel, type OverlayFile } from '../workspace/overlays';
import { diagnoseState, diagnosisDelta, MAX_DIAGNOSED_FILES, type StateDiagnosis, type StateReader } from './diagnostics-delta';
import { callAnother, defineTool, ToolInputError, type ToolDef } from './registry';
import { applyEdit, workspaceEdit, type FileState } from './workspace-edit';

/** Most symbols whose callers, dependents and tests are looked up per step (answers stay bounded). */
const IMPACT_SYMBOLS = 25;
const NEIGHBOUR_LIMIT = 200;

/** The speculation's throwaway overlay session: views of file states, dropped at the end. */
class Speculation {
  private readonly id = `speculate:${randomUUID()}`;

  constructor(private readonly ctx: ToolContext) {}

  /**
   * The engine showing `state` over the disk (the base engine when the state is empty), in view
   * `slot`: a slot shown before holds its last state until given a new one, which updates its
   * view in place (what an edit costs) rather than building another.
   */
  async engineFor(state: FileState, slot: string): Promise<Engine> {
    const base = this.ctx.overlay?.baseEngine ?? this.ctx.engine;
    if (state.size === 0) return base;
    const store = this.store();
    const { session } = store.register(this.id);
    const files = new Map<string, OverlayFile>();
    for (const [rel, content] of state) files.set(path.join(this.ctx.root, rel), { abs: path.join(this.ctx.root, rel), root: this.ctx.root, rel, content, updated_at: Date.now() });
    const previous = session.branches.get(slot);
    session.branches.set(slot, { name: slot, created_at: previous?.created_at ?? Date.now(), files, revision: (previous?.revision ?? 0) + 1 });
    const view = await store.view({ ...this.ctx, engine: base }, session, slot);
    return view?.engine ?? base;
  }

  close(): void {
    this.ctx.overlay?.store.drop(this.id);
  }

  private store() {
    if (!this.ctx.overlay) throw new ToolInputError('internal', 'speculation needs the overlay store (set by the call pipeline)');
    return this.ctx.overlay.store;
  }
}

function symbolsOf(engine: Engine, ctx: ToolContext, rel: string): NodeJson[] {
  try {
    return engine.fileSymbols(ctx.repo, rel).filter((n) => n.kind !== 'file');
  } catch {
    return [];
  }
}

/** Parameters of a signature (the text between its first parentheses), or undefined without any. */
function paramsOf(signature: string | undefined): string | undefined {
  const m = signature ? /\(([^]*?)\)/.exec(signature) : null;
  return m ? m[1]!.replace(/\s+/g, ' ').trim() : undefined;
}

function lines(content: Buffer | null, from: number, to: number): string {
  return content === null ? '' : content.toString('utf8').split('\n').slice(from - 1, to).join('\n');
}

interface SymbolRow {
  id: string;
  kind: string;
  path: string;
  line: number;
  signature?: string;
}

function row(n: NodeJson): SymbolRow {
  return { id: n.id, kind: n.kind, path: n.path, line: n.start_line, ...(n.signature ? { signature: n.signature } : {}) };
}

/** What a step changed, between the engines (and file contents) before and after it. */
async function impact(
  ctx: ToolContext,
  before: { engine: Engine; read: (rel: string) => Buffer | null },
  after: { engine: Engine; read: (rel: string) => Buffer | null },
  touched: readonly string[],
  syntax: boolean,
) {
  const oldSyms = new Map<string, NodeJson>();
  const newSyms = new Map<string, NodeJson>();
  for (const rel of touched) {
    for (const n of symbolsOf(before.engine, ctx, rel)) oldSyms.set(n.id, n);
    for (const n of symbolsOf(after.engine, ctx, rel)) newSyms.set(n.id, n);
  }
  const added = [...newSyms.values()].filter((n) => !oldSyms.has(n.id));
  const removed = [...oldSyms.values()].filter((n) => !newSyms.has(n.id));
  // A removed and an added symbol of one kind whose non-trivial parameter lists match are a rename.
  const renamed: { from: string; to: string; kind: string }[] = [];
  const takenAdded = new Set<string>();
  for (const r of removed) {
    const params = paramsOf(r.signature);
    if (!params) continue;
    const match = added.find((a) => !takenAdded.has(a.id) && a.kind === r.kind && paramsOf(a.signature) === params && (a.path === r.path || added.length === 1));
    if (match) {
      takenAdded.add(match.id);
      renamed.push({ from: r.id, to: match.id, kind: r.kind });
    }
  }
  const changedSignature: { id: string; before?: string; after?: string; params_changed: boolean }[] = [];
  const modified: string[] = [];
  for (const [id, n] of newSyms) {
    const o = oldSyms.get(id);
    if (!o) continue;
    if ((o.signature ?? '') !== (n.signature ?? '')) changedSignature.push({ id, ...(o.signature ? { before: o.signature } : {}), ...(n.signature ? { after: n.signature } : {}), params_changed: paramsOf(o.signature) !== paramsOf(n.signature) });
    if (lines(before.read(o.path), o.start_line, o.end_line) !== lines(after.read(n.path), n.start_line, n.end_line)) modified.push(id);
  }

  // Callers of what disappeared that still exist after the edit and do not call its new name.
  const renamedTo = new Map(renamed.map((r) => [r.from, r.to]));
  const removedIds = new Set(removed.map((r) => r.id));
  const brokenCallers: { caller: string; path: string; line: number; calls: string; now: 'unbound' | 'rebound'; rebound_to?: string }[] = [];
  for (const r of removed.slice(0, IMPACT_SYMBOLS)) {
    let callers: GetCallersResult;
    try {
      callers = before.engine.query('get_callers', { id: r.id, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo }) as GetCallersResult;
    } catch {
      continue;
    }
    for (const c of callers.callers) {
      if (removedIds.has(c.caller.id) || c.caller.kind === 'file') continue;
      let chain: GetCallChainResult;
      try {
        chain = after.engine.query('get_call_chain', { id: c.caller.id, depth: 1, limit: 500 }, { repo: ctx.repo }) as GetCallChainResult;
      } catch {
        continue; // the caller is gone too
      }
      // Still naming it with nothing to bind to: unbound. Bound to another symbol of that name:
      // rebound. Calling something else (the edit rewrote the call) or nothing: not broken.
      const direct = chain.nodes.filter((n) => n.depth === 1).map((n) => n.node);
      const same = direct.find((n) => n.name === r.name && n.id !== r.id);
      const unbound = (chain.unresolved ?? []).some((u) => u.from === c.caller.id && u.target.replace(/^unresolved::(\*\.)?/, '') === r.name);
      if (!same && !unbound) continue;
      brokenCallers.push({ caller: c.caller.id, path: c.caller.file_path, line: c.lines[0] ?? c.caller.start_line, calls: r.id, now: same ? 'rebound' : 'unbound', ...(same ? { rebound_to: same.id } : {}) });
    }
  }
  // Callers of symbols whose parameters changed, outside the edited files: to check.
  const callersToCheck: { caller: string; path: string; calls: string }[] = [];
  for (const s of changedSignature.filter((c) => c.params_changed).slice(0, IMPACT_SYMBOLS)) {
    try {
      const callers = after.engine.query('get_callers', { id: s.id, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo }) as GetCallersResult;
      for (const c of callers.callers) if (!touched.includes(c.caller.file_path)) callersToCheck.push({ caller: c.caller.id, path: c.caller.file_path, calls: s.id });
    } catch {
      // the symbol has no callers to list
    }
  }
  // Implementors of an interface whose members changed, outside the edited files.
  const brokenImplementors: { interface: string; implementor: string; path: string; changed: string[] }[] = [];
  const memberChanges = new Map<string, string[]>();
  for (const id of [...removedIds, ...added.map((a) => a.id), ...changedSignature.map((c) => c.id)]) {
    const n = oldSyms.get(id) ?? newSyms.get(id)!;
    const owner = n.qualified.includes('.') ? `${n.id.slice(0, n.id.indexOf('::') + 2)}${n.qualified.slice(0, n.qualified.lastIndexOf('.'))}` : undefined;
    if (owner) memberChanges.set(owner, [...(memberChanges.get(owner) ?? []), n.name]);
  }
  for (const [owner, names] of memberChanges) {
    const node = before.engine.getNode(ctx.repo, owner) ?? after.engine.getNode(ctx.repo, owner);
    if (!node || (node.kind !== 'interface' && node.flavor !== 'interface' && node.flavor !== 'protocol' && node.flavor !== 'trait')) continue;
    try {
      const impls = before.engine.query('find_implementations', { id: owner, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo }) as FindImplementationsResult;
      for (const i of impls.implementations) {
        if (!touched.includes(i.node.file_path)) brokenImplementors.push({ interface: owner, implementor: i.node.id, path: i.node.file_path, changed: [...new Set(names)].sort() });
      }
    } catch {
      // not an implementable type here
    }
  }
  // Blast radius: what depends (two hops) on what changed, in the graph before the edit.
  const changedIds = [...new Set([...removed.map((r) => r.id), ...changedSignature.map((c) => c.id), ...modified])];
  const dependents = new Set<string>();
  const files = new Set<string>();
  for (const id of changedIds.slice(0, IMPACT_SYMBOLS)) {
    try {
      const deps = before.engine.query('get_dependents', { id, depth: 2, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo }) as GetDependentsResult;
      for (const d of deps.nodes) {
        dependents.add(d.id);
        files.add(d.file_path);
      }
    } catch {
      // nothing depends on it
    }
  }
  // Tests that cover what changed (before the edit) and tests the edit adds.
  const testFiles = new Set<string>();
  const commands = new Set<string>();
  for (const id of changedIds.slice(0, IMPACT_SYMBOLS)) {
    try {
      const t = (await callAnother(ctx, 'get_test_targets', { id })) as { test_files: { path: string }[]; commands: { cwd: string; command: string }[] };
      for (const f of t.test_files) testFiles.add(f.path);
      for (const c of t.commands) commands.add(c.cwd === '.' ? c.command : `(cd ${c.cwd} && ${c.command})`);
    } catch {
      // no test lookup for this symbol
    }
  }
  for (const a of added) if (a.is_test) testFiles.add(a.path);
  const syntaxRows = syntax
    ? touched.map((rel) => {
        const b = before.read(rel);
        const a = after.read(rel);
        const errs = (bytes: Buffer | null): number | null => (bytes === null ? null : (syntaxCheck(rel, bytes).errors ?? 0));
        return { path: rel, before: errs(b), after: errs(a) };
      })
    : [];
  const newErrors = syntaxRows.reduce((n, r) => n + Math.max(0, (r.after ?? 0) - (r.before ?? 0)), 0);
  return {
    touched_files: touched.map((rel) => ({ path: rel, status: before.read(rel) === null ? 'created' : after.read(rel) === null ? 'deleted' : 'modified' })),
    added_symbols: added.filter((a) => !takenAdded.has(a.id)).map(row),
    removed_symbols: removed.filter((r) => !renamedTo.has(r.id)).map(row),
    renamed_symbols: renamed,
    changed_signatures: changedSignature,
    modified_symbols: modified,
    broken_callers: brokenCallers,
    callers_to_check: callersToCheck,
    broken_implementors: brokenImplementors,
    blast_radius: { changed_symbols: changedIds.length, dependents: dependents.size, files: [...files].sort() },
    suggested_tests: { files: [...testFiles].sort(), commands: [...commands].sort() },
    diagnostics: syntax ? { syntax: syntaxRows, new_syntax_errors: newErrors } : { ran: false, reason: 'diagnostics: false' },
  };
}

/** The impact report's shape as the handlers extend it. */
export type Impact = Awaited<ReturnType<typeof impact>>;

/** The files an impact's diagnostics cover: the touched ones, then those of callers and implementors it may break (bounded). */
function filesToDiagnose(touched: readonly string[], report: Impact): { files: string[]; skipped: string[] } {
  const all = [...new Set([...touched, ...report.broken_callers.map((c) => c.path), ...report.callers_to_check.map((c) => c.path), ...report.broken_implementors.map((i) => i.path)])];
  return { files: all.slice(0, MAX_DIAGNOSED_FILES), skipped: all.slice(MAX_DIAGNOSED_FILES) };
}

/**
 * Language-server diagnoses of a speculation's states, reusing what an earlier step diagnosed: a
 * state is keyed by its step, and a file diagnosed in that state is not diagnosed again.
 */
class StateDiagnoses {
  private readonly byState = new Map<number, StateDiagnosis>();

  constructor(
    private readonly ctx: ToolContext,
    /** Files the starting state differs from the disk in (an inherited overlay's). */
    private readonly startChanged: readonly string[],
  ) {}

  /** The diagnosis of `files` in state `index` (read by `read`, differing from the disk in `changed` and the start's). */
  async of(index: number, files: readonly string[], changed: readonly string[], read: StateReader): Promise<StateDiagnosis> {
    const known = this.byState.get(index) ?? { files: new Map(), unavailable: new Map() };
    const missing = files.filter((f) => !known.files.has(f));
    if (missing.length > 0) {
      const got = await diagnoseState(this.ctx, missing, [...new Set([...this.startChanged, ...changed])], read);
      for (const [rel, d] of got.files) known.files.set(rel, d);
      for (const [server, reason] of got.unavailable) known.unavailable.set(server, reason);
    }
    this.byState.set(index, known);
    return known;
  }

  /** The delta between states `from` and `to` over the files `report` involves, added to its diagnostics. */
  async addDelta(report: Impact, touched: readonly string[], from: { index: number; changed: readonly string[]; read: StateReader }, to: { index: number; changed: readonly string[]; read: StateReader }): Promise<void> {
    const { files, skipped } = filesToDiagnose(touched, report);
    const before = await this.of(from.index, files, from.changed, from.read);
    const after = await this.of(to.index, files, to.changed, to.read);
    (report.diagnostics as Record<string, unknown>).lsp = diagnosisDelta(before, after, files, skipped);
  }
}

/** New errors an impact's diagnostics report: tree-sitter syntax errors and language-server errors. */
function newErrorsOf(report: Impact): number {
  const d = report.diagnostics as { new_syntax_errors?: number; lsp?: { new_errors?: number } };
  return (d.new_syntax_errors ?? 0) + (d.lsp?.new_errors ?? 0);
}

/** A reader of `state` over a starting reader (the caller's overlay buffers, else the disk). */
function readerOf(state: FileState, start: (rel: string) => Buffer | null): (rel: string) => Buffer | null {
  return (rel) => (state.has(rel) ? state.get(rel)! : start(rel));
}

/** The starting point: the caller's overlay buffers (inherit) and the disk under them. */
function startOf(ctx: ToolContext, inherit: boolean): { state: FileState; read: (rel: string) => Buffer | null } {
  const state: FileState = new Map();
  if (inherit && ctx.overlayFiles) for (const [rel, content] of ctx.overlayFiles) state.set(rel, content);
  const disk = (rel: string): Buffer | null => {
    const abs = path.join(ctx.root, rel);
    try {
      return fs.statSync(abs).isFile() ? fs.readFileSync(abs) : null;
    } catch {
      return null;
    }
  };
  return { state, read: readerOf(state, disk) };
}

/** The ctx to speculate from: its overlay is inherited only when asked. */
function speculationContext(ctx: ToolContext, inherit: boolean): ToolContext {
  if (inherit || !ctx.overlay?.baseEngine) return ctx;
  const { overlayFiles: _files, ...rest } = ctx;
  return { ...rest, engine: ctx.overlay.baseEngine };
}

/** A speculation's context (its overlay inherited only when asked), starting files and throwaway views. */
function begin(ctx: ToolContext, inherit: boolean): { from: ToolContext; start: ReturnType<typeof startOf>; speculation: Speculation } {
  const from = speculationContext(ctx, inherit);
  return { from, start: startOf(from, inherit), speculation: new Speculation(from) };
}

/**
 * The session overlay's pending edits simulated as one step over the files on disk: what
 * `simulate_chain` reports for them (broken callers and implementors, signature changes, blast
 * radius, new syntax errors and, with `diagnostics`, the language servers' new errors), or
 * undefined when the call reads through no overlay or the overlay changes nothing.
 */
export async function simulateOverlay(ctx: ToolContext, diagnostics: boolean): Promise<Impact | undefined> {
  if (!ctx.overlayFiles || ctx.overlayFiles.size === 0) return undefined;
  const from = speculationContext(ctx, false);
  const disk = startOf(from, false).read;
  const state: FileState = new Map(ctx.overlayFiles);
  const touched = [...state.keys()].sort();
  const speculation = new Speculation(from);
  try {
    const after = await speculation.engineFor(state, 'after');
    const afterRead = readerOf(state, disk);
    const report = await impact(from, { engine: from.engine, read: disk }, { engine: after, read: afterRead }, touched, true);
    if (diagnostics) await new StateDiagnoses(from, []).addDelta(report, touched, { index: 0, changed: [], read: disk }, { index: 1, changed: touched, read: afterRead });
    return report;
  } finally {
    speculation.close();
  }
}

/** The speculative-execution tools. */
export function speculateTools(): ToolDef[] {
  return [
    defineTool({
      name: 'preview_edit',
      category: 'edit',
      effect: 'read',
      description:
        'Previews an LSP WorkspaceEdit (changes or documentChanges, with create / rename / delete file operations) without writing anything: touched files, added / removed / renamed symbols, changed signatures, broken callers, broken interface implementors, blast radius, suggested tests and new syntax errors. inherit_overlay: true starts from the session\'s overlay.',
      input: {
        workspace_edit: workspaceEdit,
        diagnostics: z.boolean().optional().describe("Check the touched files' syntax and ask their language servers for the diagnostics the edit adds or clears (default true)"),
        inherit_overlay: z.boolean().optional().describe("Layer the edit over this session's overlay (default: over the files on disk)"),
      },
      handler: async (ctx, args) => {
        const inherit = args.inherit_overlay === true;
        const { from, start, speculation } = begin(ctx, inherit);
        try {
          const after: FileState = new Map(start.state);
          const touched = applyEdit(from, after, start.read, args.workspace_edit);
          const beforeEngine = await speculation.engineFor(start.state, 'start');
          const afterEngine = await speculation.engineFor(after, 'after');
          const afterRead = readerOf(after, start.read);
          const diagnose = args.diagnostics !== false;
          const report = await impact(from, { engine: beforeEngine, read: start.read }, { engine: afterEngine, read: afterRead }, touched, diagnose);
          if (diagnose) {
            await new StateDiagnoses(from, [...start.state.keys()]).addDelta(report, touched, { index: 0, changed: [], read: start.read }, { index: 1, changed: touched, read: afterRead });
          }
          return { applied: true, inherited_overlay: inherit && start.state.size > 0, ...report };
        } finally {
          speculation.close();
        }
      },
    }),
    defineTool({
      name: 'simulate_chain',
      category: 'edit',
      effect: 'session_write',
      description:
        "Applies an ordered list of LSP WorkspaceEdits in memory, one after another: each step's impact (as preview_edit reports it), a cumulative rollup, and per-step new syntax errors; stop_on_error (default true) stops at the first step that fails to apply or adds a syntax error. keep: true turns the final state into this session's overlay (active branch).",
      input: {
        steps: z
          .array(z.object({ workspace_edit: workspaceEdit, label: z.string().optional() }))
          .min(1)
          .max(50)
          .describe('The edits, in order'),
        stop_on_error: z.boolean().optional(),
        keep: z.boolean().optional().describe("Promote the final state into this session's overlay"),
        inherit_overlay: z.boolean().optional().describe("Start from this session's overlay (default: the files on disk)"),
        diagnostics: z.boolean().optional().describe("Ask the touched files' language servers for each step's new and cleared diagnostics (default true; syntax is always checked)"),
      },
      handler: async (ctx, args) => {
        const stopOnError = args.stop_on_error !== false;
        const { from, start, speculation } = begin(ctx, args.inherit_overlay === true);
        const lsp = args.diagnostics === false ? undefined : new StateDiagnoses(from, [...start.state.keys()]);
        try {
          let state: FileState = new Map(start.state);
          const startEngine = await speculation.engineFor(start.state, 'start');
          let engine = startEngine;
          // Steps alternate between two views, each updated in place to the state after next.
          let slot = 'b';
          const steps: Record<string, unknown>[] = [];
          const allTouched = new Set<string>();
          let applied = 0;
          let stoppedAt: number | undefined;
          for (const [i, step] of args.steps.entries()) {
            const next: FileState = new Map(state);
            let touched: string[];
            try {
              touched = applyEdit(from, next, start.read, step.workspace_edit);
            } catch (error) {
              if (!(error instanceof ToolInputError)) throw error;
              steps.push({ step: i + 1, ...(step.label ? { label: step.label } : {}), applied: false, error: { code: error.code, message: error.message } });
              if (stopOnError) {
                stoppedAt = i + 1;
                break;
              }
              continue;
            }
            slot = slot === 'a' ? 'b' : 'a';
            const nextEngine = await speculation.engineFor(next, slot);
            const report = await impact(from, { engine, read: readerOf(state, start.read) }, { engine: nextEngine, read: readerOf(next, start.read) }, touched, true);
            const changedBefore = [...allTouched];
            touched.forEach((t) => allTouched.add(t));
            // States are numbered by the steps applied: 0 is the start.
            await lsp?.addDelta(report, touched, { index: applied, changed: changedBefore, read: readerOf(state, start.read) }, { index: applied + 1, changed: [...allTouched], read: readerOf(next, start.read) });
            applied++;
            steps.push({ step: i + 1, ...(step.label ? { label: step.label } : {}), applied: true, ...report });
            state = next;
            engine = nextEngine;
            if (stopOnError && newErrorsOf(report) > 0) {
              stoppedAt = i + 1;
              break;
            }
          }
          const cumulative = await impact(from, { engine: startEngine, read: start.read }, { engine, read: readerOf(state, start.read) }, [...allTouched].sort(), true);
          await lsp?.addDelta(cumulative, [...allTouched].sort(), { index: 0, changed: [], read: start.read }, { index: applied, changed: [...allTouched], read: readerOf(state, start.read) });
          let kept: Record<string, unknown> | undefined;
          if (args.keep) {
            if (!ctx.overlay) throw new ToolInputError('not_available', 'keep: true needs a session with an overlay (MCP, or /v1 with a session header)');
            const { session } = ctx.overlay.store.register(ctx.overlay.session);
            const branch = session.branches.get(session.active) ?? session.branches.get(MAIN_BRANCH)!;
            for (const rel of allTouched) {
              const abs = path.join(ctx.root, rel);
              branch.files.set(abs, { abs, root: ctx.root, rel: overlayRel(rel), content: state.get(rel) ?? null, updated_at: Date.now() });
            }
            branch.revision++;
            kept = { session_id: session.id, branch: branch.name, files: branch.files.size };
          }
          return {
            steps,
            completed: stoppedAt === undefined ? steps.filter((s) => s.applied).length : stoppedAt - 1,
            ...(stoppedAt !== undefined ? { stopped_at: stoppedAt } : {}),
            cumulative,
            ...(kept ? { kept } : {}),
          };
        } finally {
          speculation.close();
        }
      },
    }),
  ] as unknown as ToolDef[];
}
