/**
 * Diagnostics and code actions from the language servers (`ts/lsp/`): the servers' diagnostics for
 * a file (as the caller sees it: its overlay buffer when it has one), push subscriptions to them,
 * the code actions at a location, applying one through the guarded write path
 * (`ts/workspace/writes.ts`: drift guard, parse gate, atomic), and fixing a whole file by rounds of
 * the servers' preferred fixes until nothing applicable is left. Lines and columns are 1-based
 * (columns in UTF-16 units, as editors count).
 */
import * as path from 'node:path';
import { z } from 'zod';
import { lspPool, requestDeadlineMs, type DiagnosticsEvent } from '../lsp/pool';
import { LspError, pathUri, uriPath, type LspServer, type Published } from '../lsp/server';
import { severityName, severityNumber, SEVERITY_NAMES, type CodeAction, type Command, type Diagnostic, type Range, type WorkspaceEdit as LspWorkspaceEdit } from '../lsp/types';
import type { ToolContext } from '../workspace/context';
import { overlayRel } from '../workspace/overlays';
import { blobSha, checkBase, commitWrites, isBinary, MAX_WRITE_BYTES, resolveWritable, type PlannedWrite, type WriteTarget } from '../workspace/writes';
import { sessionChannels, unsubscribeTool } from './channels';
import { unifiedDiff } from './edit';
import { defineTool, ToolInputError, type ToolDef } from './registry';
import { applyEdit, workspaceEdit, type FileState } from './workspace-edit';

const severityArg = z.enum(SEVERITY_NAMES).describe('Least severe diagnostic to report: error, warning, information or hint (default hint: all)');
const timeoutArg = z.number().int().min(100).max(120_000).describe('How long to wait for the server, in ms (default 20000)');
const DEFAULT_WAIT_MS = 20_000;
/** Whole-file source actions `fix_all_in_file` tries before per-diagnostic quickfixes. */
const WHOLE_FILE_KINDS = ['source.fixAll', 'source.addMissingImports'] as const;

/** A file as the caller sees it, and where its server knows it. */
interface CallerFile {
  rel: string;
  /** The path the server knows the file by (under the repository root as served). */
  abs: string;
  text: string;
  /** The text is the caller's overlay buffer, not the disk's. */
  overlaid: boolean;
  /** Blob sha of the disk content (null: the file exists only in the overlay). */
  diskSha: string | null;
  /** The file on disk, for the drift guard of the writing tools. */
  target: WriteTarget;
}

/** Reads `raw` as the caller sees it (overlay buffer first), refusing paths outside the repository and binary or huge files. */
function callerFile(ctx: ToolContext, raw: string): CallerFile {
  const target = resolveWritable(ctx.root, raw, { create: true });
  const buffer = ctx.overlayFiles?.get(overlayRel(target.rel));
  if (buffer === null) throw new ToolInputError('not_found', `${target.rel} is deleted in this session's overlay`);
  const bytes = buffer ?? target.current;
  if (bytes === null) throw new ToolInputError('not_found', `${target.rel} does not exist`);
  if (bytes.length > MAX_WRITE_BYTES) throw new ToolInputError('invalid_argument', `${target.rel} is larger than ${MAX_WRITE_BYTES} bytes; language servers are not asked about files that size`);
  if (isBinary(bytes)) throw new ToolInputError('invalid_argument', `${target.rel} is a binary file`);
  return { rel: target.rel, abs: path.join(ctx.root, target.rel), text: bytes.toString('utf8'), overlaid: buffer !== undefined, diskSha: target.current === null ? null : blobSha(target.current), target };
}

/** A pool failure as a tool error with the pool's message (install hints included). */
function asToolError(error: unknown): never {
  if (error instanceof LspError) throw new ToolInputError(error.code, error.message);
  throw error;
}

async function serverOf(ctx: ToolContext, rel: string): Promise<LspServer> {
  try {
    return await lspPool().serverFor(ctx.root, rel);
  } catch (error) {
    return asToolError(error);
  }
}

/**
 * Runs `fn` with the server holding the caller's text for `file` (inside the server's turn): the
 * disk's text stays open in the server afterwards; an overlay buffer is put back to the disk's.
 */
async function holding<T>(server: LspServer, file: CallerFile, fn: () => Promise<T>): Promise<T> {
  const pool = lspPool();
  return pool.exclusive(server, async () => {
    if (file.overlaid) return pool.withText(server, file.abs, file.text, fn);
    pool.sync(server, file.abs, file.text);
    return fn();
  });
}

/** The diagnostics for the text the server holds now (waiting up to `waitMs`; 0: what is stored). */
async function currentDiagnostics(server: LspServer, abs: string, waitMs: number): Promise<{ published?: Published; waited_ms: number }> {
  const started = Date.now();
  const stored = server.diagnostics.get(abs);
  const since = server.changedAtSeq(abs);
  if (stored && waitMs === 0 && ((since !== undefined && stored.seq > since) || server.publishedForCurrentText(abs))) return { published: stored, waited_ms: 0 };
  if (waitMs === 0) return { waited_ms: 0 };
  const published = await server.settledPublish(abs, waitMs, server.resolved.spec.settleMs);
  return { ...(published ? { published } : {}), waited_ms: Date.now() - started };
}

/** One diagnostic as tools answer it (1-based lines and columns). */
export function diagnosticRow(d: Diagnostic): Record<string, unknown> {
  return {
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    end_line: d.range.end.line + 1,
    end_column: d.range.end.character + 1,
    severity: severityName(d.severity),
    ...(d.code !== undefined ? { code: d.code } : {}),
    ...(d.source ? { source: d.source } : {}),
    message: d.message,
  };
}

/** Diagnostics counted by severity. */
export function counts(diagnostics: readonly Diagnostic[]): Record<string, number> {
  const out: Record<string, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const d of diagnostics) out[severityName(d.severity)]!++;
  return out;
}

function atLeast(min: (typeof SEVERITY_NAMES)[number] | undefined): (d: Diagnostic) => boolean {
  const limit = severityNumber(min ?? 'hint');
  return (d) => (d.severity ?? 1) <= limit;
}

/** A 1-based location argument as an LSP range (a whole line when no column is given). */
function rangeOf(text: string, args: { line: number; column?: number | undefined; end_line?: number | undefined; end_column?: number | undefined }): Range {
  const lines = text.split('\n');
  if (args.line > lines.length) throw new ToolInputError('invalid_argument', `line ${args.line} is past the end of the file (${lines.length} lines)`);
  const lengthOf = (line: number): number => (lines[line - 1] ?? '').replace(/\r$/, '').length;
  const endLine = args.end_line ?? args.line;
  if (endLine < args.line) throw new ToolInputError('invalid_argument', `end_line ${endLine} is before line ${args.line}`);
  if (endLine > lines.length) throw new ToolInputError('invalid_argument', `end_line ${endLine} is past the end of the file (${lines.length} lines)`);
  const start = { line: args.line - 1, character: args.column === undefined ? 0 : Math.min(args.column - 1, lengthOf(args.line)) };
  const endCharacter = args.end_column !== undefined ? args.end_column - 1 : args.column !== undefined && args.end_line === undefined ? args.column - 1 : lengthOf(endLine);
  return { start, end: { line: endLine - 1, character: Math.min(endCharacter, lengthOf(endLine)) } };
}

function overlaps(a: Range, b: Range): boolean {
  const before = (x: { line: number; character: number }, y: { line: number; character: number }): boolean => x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** The code actions a server offers for `range` of the text it holds (with the diagnostics there as context). */
async function codeActions(server: LspServer, abs: string, range: Range, diagnostics: readonly Diagnostic[], only: readonly string[] | undefined): Promise<CodeAction[]> {
  if (!server.offers('textDocument/codeAction', 'codeActionProvider')) {
    throw new ToolInputError('not_available', `the ${server.name} language server (${server.label}) offers no code actions`);
  }
  const answer = await server.request<(CodeAction | Command)[] | null>(
    'textDocument/codeAction',
    { textDocument: { uri: pathUri(abs) }, range, context: { diagnostics: diagnostics.filter((d) => overlaps(d.range, range)), ...(only ? { only } : {}), triggerKind: 1 } },
    requestDeadlineMs(),
  );
  return (answer ?? []).map((a) => ('command' in a && typeof a.command === 'string' ? { title: a.title, command: a as Command } : (a as CodeAction)));
}

/** An action's edits: its own, after `codeAction/resolve` when the server resolves lazily, plus any a command asks to apply. */
async function actionEdits(server: LspServer, action: CodeAction): Promise<LspWorkspaceEdit[]> {
  let resolved = action;
  const provider = server.capabilities.codeActionProvider as { resolveProvider?: boolean } | undefined;
  if (!resolved.edit && provider?.resolveProvider && resolved.data !== undefined) {
    resolved = (await server.request<CodeAction>('codeAction/resolve', action, requestDeadlineMs())) ?? action;
  }
  const carried = embeddedEdits(resolved);
  if (carried) return carried;
  const edits: LspWorkspaceEdit[] = resolved.edit ? [resolved.edit] : [];
  if (resolved.command) edits.push(...(await server.executeCommand(resolved.command, requestDeadlineMs())));
  return edits;
}

/** Commands that only carry a WorkspaceEdit for the client to apply (their first argument): applied without a round trip. */
const EDIT_COMMANDS = new Set(['_typescript.applyWorkspaceEdit']);

/** An action's edits when it needs no server command (its edit, or an edit-carrying command's); undefined when a command must run. */
function embeddedEdits(action: CodeAction): LspWorkspaceEdit[] | undefined {
  const command = action.command;
  if (!command) return action.edit ? [action.edit] : [];
  const carried = command.arguments?.[0] as LspWorkspaceEdit | undefined;
  if (EDIT_COMMANDS.has(command.command) && carried && typeof carried === 'object' && (carried.changes || carried.documentChanges)) {
    return [...(action.edit ? [action.edit] : []), carried];
  }
  return undefined;
}

/** The server's edits applied to `state` (read through `read`); the paths they touched. */
function applyServerEdits(ctx: ToolContext, state: FileState, read: (rel: string) => Buffer | null, edits: readonly LspWorkspaceEdit[]): string[] {
  const touched = new Set<string>();
  for (const edit of edits) {
    const parsed = workspaceEdit.safeParse(edit);
    if (!parsed.success) throw new ToolInputError('internal', `the language server sent an edit gortex cannot read: ${parsed.error.issues[0]?.message ?? 'malformed'}`);
    for (const rel of applyEdit(ctx, state, read, parsed.data)) touched.add(rel);
  }
  return [...touched].sort();
}

function actionRow(a: CodeAction, index: number, root: string): Record<string, unknown> {
  return {
    index,
    title: a.title,
    ...(a.kind ? { kind: a.kind } : {}),
    ...(a.isPreferred ? { is_preferred: true } : {}),
    ...(a.disabled ? { disabled: a.disabled.reason } : {}),
    ...(a.diagnostics && a.diagnostics.length > 0 ? { fixes: a.diagnostics.map((d) => d.message) } : {}),
    applies: embeddedEdits(a)?.length ? 'edit' : a.command ? 'command' : a.data !== undefined ? 'resolve' : 'nothing',
    ...(a.edit ? { edit_files: editFiles(a.edit, root) } : {}),
  };
}

/** The files an edit touches: repository-relative inside `root`, absolute outside it. */
function editFiles(edit: LspWorkspaceEdit, root: string): string[] {
  const uris = [...Object.keys(edit.changes ?? {})];
  for (const c of edit.documentChanges ?? []) {
    const change = c as { textDocument?: { uri: string }; uri?: string; newUri?: string };
    const uri = change.textDocument?.uri ?? change.uri ?? change.newUri;
    if (uri) uris.push(uri);
  }
  const shown = (abs: string): string => {
    const rel = path.relative(root, abs);
    return rel.startsWith('..') || path.isAbsolute(rel) ? abs : overlayRel(rel);
  };
  return [
    ...new Set(
      uris.map((uri) => {
        const abs = uriPath(uri);
        return abs === undefined ? uri : shown(abs);
      }),
    ),
  ].sort();
}

const locationInput = {
  path: z.string().describe('Repository-relative path of the file'),
  line: z.number().int().min(1).describe('1-based line'),
  column: z.number().int().min(1).optional().describe('1-based column (UTF-16 units); absent: the whole line'),
  end_line: z.number().int().min(1).optional().describe('1-based last line of the range (default line)'),
  end_column: z.number().int().min(1).optional().describe('1-based column the range ends before'),
  kinds: z.array(z.string().min(1)).optional().describe('Only these code action kinds (prefixes count): quickfix, refactor, refactor.extract, source, source.organizeImports, source.fixAll…'),
};

/** Diagnostics of a file after the edits a tool planned, read from the server holding that text. */
async function diagnosticsOf(server: LspServer, file: CallerFile, text: string, waitMs: number): Promise<Diagnostic[] | undefined> {
  const pool = lspPool();
  return pool.exclusive(server, () =>
    pool.withText(server, file.abs, text, async () => (await currentDiagnostics(server, file.abs, waitMs)).published?.diagnostics),
  );
}

/** Commits a planned file state through the guarded write path and answers what was written. */
async function commitState(ctx: ToolContext, state: FileState, args: { dry_run?: boolean | undefined; allow_parse_errors?: boolean | undefined }): Promise<Record<string, unknown>[]> {
  const plans: PlannedWrite[] = [...state.entries()].map(([rel, after]) => ({ target: resolveWritable(ctx.root, rel, { create: true }), after }));
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  return written.map((w, i) => {
    const plan = plans[i]!;
    const { diff, truncated } = unifiedDiff(w.path, plan.target.current?.toString('utf8') ?? '', plan.after?.toString('utf8') ?? '', plan.target.current === null);
    return { ...w, diff, ...(truncated ? { diff_truncated: true } : {}) };
  });
}

function refuseOverlaid(file: CallerFile, tool: string): void {
  if (file.overlaid) {
    throw new ToolInputError(
      'not_available',
      `${file.rel} has an overlay buffer in this session: ${tool} writes the disk. Call get_code_actions (its edit_files and the action's edits apply to the buffer with overlay_push), or drop the buffer first`,
    );
  }
}

/** Picks the action named by `title` (and `kind`) among `actions`, or says which exist. */
function pick(actions: readonly CodeAction[], args: { title?: string | undefined; index?: number | undefined; kind?: string | undefined }): CodeAction {
  const enabled = actions.filter((a) => !a.disabled);
  const listing = (): string => actions.map((a, i) => `[${i}] ${a.title}${a.kind ? ` (${a.kind})` : ''}${a.disabled ? ' — disabled' : ''}`).join('; ') || 'none';
  if (args.index !== undefined) {
    const a = actions[args.index];
    if (!a) throw new ToolInputError('not_found', `no code action ${args.index} at this location; there are: ${listing()}`);
    if (args.title !== undefined && a.title !== args.title) throw new ToolInputError('conflict', `code action ${args.index} is now "${a.title}", not "${args.title}": the file changed since; call get_code_actions again`);
    if (a.disabled) throw new ToolInputError('not_available', `code action "${a.title}" is disabled: ${a.disabled.reason}`);
    return a;
  }
  // A kind matches itself and its sub-kinds (`source.organizeImports` matches `source.organizeImports.go`).
  const ofKind = (a: CodeAction): boolean => args.kind === undefined || a.kind === args.kind || (a.kind ?? '').startsWith(`${args.kind}.`);
  const matching = enabled.filter((a) => (args.title === undefined || a.title === args.title) && ofKind(a));
  if (matching.length === 1) return matching[0]!;
  const named = [args.title !== undefined ? `titled ${JSON.stringify(args.title)}` : '', args.kind !== undefined ? `of kind ${args.kind}` : ''].filter(Boolean).join(' ');
  if (matching.length === 0) throw new ToolInputError('not_found', `no enabled code action ${named} at this location; there are: ${listing()}`);
  throw new ToolInputError('ambiguous', `${matching.length} code actions are ${named}; pass index (from get_code_actions), title or kind: ${listing()}`);
}

/** The diagnostics and code-action tools. */
export function diagnosticsTools(): ToolDef[] {
  return [
    defineTool({
      name: 'get_diagnostics',
      category: 'read',
      effect: 'read',
      description:
        "The language server's diagnostics (type errors, unresolved imports, lint) for a file as this session sees it (its overlay buffer when it has one), " +
        'opening it in the server. Without path: the stored diagnostics of every file the servers have open. wait (default true) blocks until the server has published for the current text.',
      input: {
        path: z.string().optional().describe('Repository-relative file; absent: every open file'),
        path_prefix: z.string().optional().describe('Without path: only files under this prefix'),
        min_severity: severityArg.optional(),
        wait: z.boolean().optional().describe('Wait for the server to publish for the current text (default true); false answers what is stored now'),
        timeout_ms: timeoutArg.optional(),
      },
      handler: async (ctx, args) => {
        const keep = atLeast(args.min_severity);
        if (args.path === undefined) {
          const prefix = args.path_prefix === undefined ? '' : overlayRel(args.path_prefix);
          const rows = lspPool()
            .stored(ctx.root)
            .map(({ server, published }) => ({ server, rel: overlayRel(path.relative(ctx.root, published.file)), kept: published.diagnostics.filter(keep) }))
            .filter((f) => !f.rel.startsWith('..') && f.rel.startsWith(prefix) && f.kept.length > 0)
            .sort((a, b) => a.rel.localeCompare(b.rel));
          const files = rows.map((f) => ({ path: f.rel, server: f.server, counts: counts(f.kept), diagnostics: f.kept.map(diagnosticRow) }));
          const total = counts(rows.flatMap((f) => f.kept));
          return { files, counts: total, servers: lspPool().status(ctx.root), note: 'Only files open in a language server have diagnostics: get_diagnostics with a path (or subscribe_diagnostics, which opens files as they change) opens one.' };
        }
        const file = callerFile(ctx, args.path);
        const server = await serverOf(ctx, file.rel);
        const waitMs = args.wait === false ? 0 : (args.timeout_ms ?? DEFAULT_WAIT_MS);
        const got = await holding(server, file, () => currentDiagnostics(server, file.abs, waitMs));
        const kept = got.published?.diagnostics.filter(keep) ?? [];
        return {
          path: file.rel,
          server: server.name,
          server_info: server.label,
          overlay: file.overlaid,
          published: got.published !== undefined,
          ...(got.published === undefined
            ? { note: waitMs === 0 ? 'the server has not published for the current text yet; call again with wait: true' : `the server published nothing within ${waitMs} ms (a large project may still be loading); call again or raise timeout_ms` }
            : {}),
          counts: counts(kept),
          diagnostics: kept.map(diagnosticRow),
          ...(got.published?.assumed ? { assumed: got.published.assumed } : {}),
          waited_ms: got.waited_ms,
        };
      },
    }),
    defineTool({
      name: 'subscribe_diagnostics',
      category: 'subscription',
      effect: 'session_write',
      description:
        'Push this session notifications/diagnostics ({repo, path, server, diagnostics, counts}) whenever a language server publishes new diagnostics for a file of this repository: ' +
        'what is stored replays at once, then changes only. Files the watcher or a write tool changes are opened in their server so their diagnostics arrive. Filter with min_severity and path_prefix; subscribing again replaces the filter.',
      input: { min_severity: severityArg.optional(), path_prefix: z.string().optional().describe('Only files under this repository-relative prefix') },
      handler: (ctx, args) => {
        const channels = sessionChannels(ctx);
        const keep = atLeast(args.min_severity);
        const prefix = args.path_prefix === undefined ? '' : overlayRel(args.path_prefix);
        const root = ctx.root;
        const repo = ctx.lastIndex?.repo ?? path.basename(root);
        const sent = new Map<string, string>();
        let replayed = 0;
        const deliver = (server: string, published: Published): boolean => {
          const rel = overlayRel(path.relative(root, published.file));
          if (rel.startsWith('..') || !rel.startsWith(prefix)) return false;
          const kept = published.diagnostics.filter(keep);
          const key = JSON.stringify(kept);
          // Delta-filtered: the same list again (a re-publish, a restore after an overlay read) is not news, nor a first empty one.
          const last = sent.get(rel);
          if (last === key || (last === undefined && kept.length === 0)) return false;
          sent.set(rel, key);
          channels.notify('notifications/diagnostics', { repo, path: rel, server, counts: counts(kept), diagnostics: kept.map(diagnosticRow) });
          return true;
        };
        channels.subscribe('diagnostics', () => {
          for (const { server, published } of lspPool().stored(root)) if (deliver(server, published)) replayed++;
          return lspPool().onDiagnostics((event: DiagnosticsEvent) => {
            if (event.root === root) deliver(event.server, event.published);
          }, [root]);
        });
        return { subscribed: 'diagnostics', method: 'notifications/diagnostics', repo, ...(args.min_severity ? { min_severity: args.min_severity } : {}), ...(prefix ? { path_prefix: prefix } : {}), replayed, channels: channels.list() };
      },
    }),
    unsubscribeTool('diagnostics'),
    defineTool({
      name: 'get_code_actions',
      category: 'edit',
      effect: 'read',
      description:
        "The language server's code actions at a location of a file (quickfixes for the diagnostics there, organize imports, refactorings, source actions), as this session sees the file. " +
        'Each row has an index and title for apply_code_action, its kind, whether it is preferred, and the files its edit touches.',
      input: { ...locationInput, include_disabled: z.boolean().optional().describe('Also list actions the server offers but disables here, with the reason (default false)'), timeout_ms: timeoutArg.optional() },
      handler: async (ctx, args) => {
        const file = callerFile(ctx, args.path);
        const range = rangeOf(file.text, args);
        const server = await serverOf(ctx, file.rel);
        const { actions, diagnostics } = await holding(server, file, async () => {
          const got = await currentDiagnostics(server, file.abs, args.timeout_ms ?? DEFAULT_WAIT_MS);
          const diagnostics = got.published?.diagnostics ?? [];
          return { actions: await codeActions(server, file.abs, range, diagnostics, args.kinds).catch(asToolError), diagnostics };
        });
        return {
          path: file.rel,
          server: server.name,
          overlay: file.overlaid,
          range: { line: range.start.line + 1, column: range.start.character + 1, end_line: range.end.line + 1, end_column: range.end.character + 1 },
          diagnostics: diagnostics.filter((d) => overlaps(d.range, range)).map(diagnosticRow),
          // Indexes stay those of the server's list, so apply_code_action's index finds the same action.
          actions: actions.map((a, i) => actionRow(a, i, ctx.root)).filter((row) => args.include_disabled === true || row.disabled === undefined),
          ...(file.diskSha ? { base_sha: file.diskSha } : {}),
        };
      },
    }),
    defineTool({
      name: 'apply_code_action',
      category: 'edit',
      effect: 'local_write',
      description:
        'Apply one code action (by title, kind, or index from get_code_actions) at a location: the server is asked again at the same place, its edit (or the edits its command asks for) ' +
        'is written atomically through the guarded write path (base_sha, parse gate, all files or none), and the file\'s diagnostics after the change are returned. dry_run previews the diff.',
      input: {
        ...locationInput,
        title: z.string().min(1).optional().describe('The action\'s title, as get_code_actions listed it'),
        index: z.number().int().min(0).optional().describe('The action\'s index from get_code_actions (checked against title when both are given)'),
        kind: z.string().optional().describe('The action\'s kind (or a parent kind such as source.organizeImports): alone it names the one action of that kind; with title it tells two of one title apart'),
        base_sha: z.string().optional().describe("Refuse with conflict unless the file's blob sha is this (get_code_actions answers base_sha)"),
        dry_run: z.boolean().optional().describe('Compute the edit and its diff without writing'),
        allow_parse_errors: z.boolean().optional().describe('Write even if a file gains syntax errors (refused by default)'),
        timeout_ms: timeoutArg.optional(),
      },
      handler: async (ctx, args) => {
        if (args.title === undefined && args.index === undefined && args.kind === undefined) {
          throw new ToolInputError('invalid_argument', 'name the action: title, kind (when one action has it) or index, as get_code_actions listed them');
        }
        const file = callerFile(ctx, args.path);
        refuseOverlaid(file, 'apply_code_action');
        checkBase(file.target, args.base_sha);
        const range = rangeOf(file.text, args);
        const server = await serverOf(ctx, file.rel);
        const waitMs = args.timeout_ms ?? DEFAULT_WAIT_MS;
        const { action, edits } = await holding(server, file, async () => {
          const got = await currentDiagnostics(server, file.abs, waitMs);
          const actions = await codeActions(server, file.abs, range, got.published?.diagnostics ?? [], args.kinds).catch(asToolError);
          const action = pick(actions, args);
          return { action, edits: await actionEdits(server, action).catch(asToolError) };
        });
        const state: FileState = new Map();
        const touched = applyServerEdits(ctx, state, (rel) => resolveWritable(ctx.root, rel, { create: true }).current, edits);
        if (touched.length === 0) return { applied: action.title, status: 'no_change', note: 'the action changed nothing (a server-side command may have had nothing to do)', files: [] };
        const files = await commitState(ctx, state, args);
        const after = state.get(file.rel);
        const remaining = after && !args.dry_run ? await diagnosticsOf(server, file, after.toString('utf8'), waitMs) : undefined;
        return {
          applied: action.title,
          ...(action.kind ? { kind: action.kind } : {}),
          dry_run: args.dry_run === true,
          files,
          ...(remaining ? { diagnostics_after: { counts: counts(remaining), diagnostics: remaining.map(diagnosticRow) } } : {}),
        };
      },
    }),
    defineTool({
      name: 'fix_all_in_file',
      category: 'edit',
      effect: 'local_write',
      description:
        "Fix what the language server can in one file: rounds of its whole-file source actions (fix all, add missing imports) and the preferred (or only) quickfix of each remaining diagnostic, applied in memory and checked again, until nothing applicable is left (at most max_rounds), then written atomically once. " +
        'Returns the actions applied, the diagnostics before and after, and the diff; dry_run previews.',
      input: {
        path: z.string().describe('Repository-relative path of the file'),
        max_rounds: z.number().int().min(1).max(50).optional().describe('Most fix rounds (default 10)'),
        min_severity: severityArg.optional().describe('Fix diagnostics at least this severe (default warning)'),
        base_sha: z.string().optional().describe("Refuse with conflict unless the file's blob sha is this"),
        dry_run: z.boolean().optional().describe('Compute the fixes and the diff without writing'),
        allow_parse_errors: z.boolean().optional().describe('Write even if the file gains syntax errors (refused by default)'),
        timeout_ms: timeoutArg.optional(),
      },
      handler: async (ctx, args) => {
        const file = callerFile(ctx, args.path);
        refuseOverlaid(file, 'fix_all_in_file');
        checkBase(file.target, args.base_sha);
        const server = await serverOf(ctx, file.rel);
        const waitMs = args.timeout_ms ?? DEFAULT_WAIT_MS;
        const keep = atLeast(args.min_severity ?? 'warning');
        const maxRounds = args.max_rounds ?? 10;
        const pool = lspPool();
        const state: FileState = new Map();
        const disk = (rel: string): Buffer | null => resolveWritable(ctx.root, rel, { create: true }).current;
        const read = (rel: string): Buffer | null => (state.has(rel) ? state.get(rel)! : disk(rel));
        const applied: { round: number; title: string; kind?: string }[] = [];
        const skipped: { title: string; why: string }[] = [];
        let before: Diagnostic[] = [];
        let after: Diagnostic[] = [];
        let rounds = 0;
        let stopped = 'no applicable fix left';
        // The whole loop holds the server with the working text: each round's actions see the text the last one left.
        await pool.exclusive(server, () =>
          pool.withText(server, file.abs, file.text, async () => {
            let text = file.text;
            const tried = new Set<string>();
            for (let attempt = 0; ; attempt++) {
              server.sync(file.abs, text);
              const diagnostics = (await currentDiagnostics(server, file.abs, waitMs)).published?.diagnostics ?? [];
              if (attempt === 0) before = diagnostics;
              after = diagnostics;
              const open = diagnostics.filter(keep);
              if (open.length === 0) {
                stopped = 'no diagnostics left';
                return;
              }
              if (rounds >= maxRounds || attempt >= maxRounds * 3) {
                stopped = `max_rounds (${maxRounds}) reached`;
                return;
              }
              const textSha = blobSha(Buffer.from(text));
              const fresh = (a: CodeAction): boolean => !a.disabled && !tried.has(`${a.title}\0${textSha}`);
              let chosen: CodeAction | undefined;
              // Whole-file source actions first (fix all, then adding missing imports), where the server has them.
              const whole = rangeOf(text, { line: 1, end_line: text.split('\n').length });
              for (const kind of WHOLE_FILE_KINDS) {
                chosen ??= (await codeActions(server, file.abs, whole, open, [kind]).catch(() => [])).find(fresh);
              }
              for (const d of open) {
                if (chosen) break;
                const usable = (await codeActions(server, file.abs, d.range, [d], ['quickfix']).catch(asToolError)).filter(fresh);
                chosen = usable.find((a) => a.isPreferred) ?? (usable.length === 1 ? usable[0] : undefined);
              }
              if (!chosen) return;
              tried.add(`${chosen.title}\0${textSha}`);
              if (!embeddedEdits(chosen)) {
                // A command the server would run itself (it may do anything: install a package, …) is never run unasked.
                skipped.push({ title: chosen.title, why: `needs the server to run ${chosen.command?.command ?? 'a command'}; apply it with apply_code_action if you want it` });
                continue;
              }
              const edits = await actionEdits(server, chosen).catch(asToolError);
              const round: FileState = new Map([[file.rel, Buffer.from(text, 'utf8')]]);
              applyServerEdits(ctx, round, read, edits);
              const next = round.get(file.rel);
              if (next === null || next === undefined) {
                skipped.push({ title: chosen.title, why: 'it deletes the file' });
                continue;
              }
              if (next.toString('utf8') === text && round.size === 1) {
                skipped.push({ title: chosen.title, why: 'its edit changes nothing' });
                continue;
              }
              for (const [rel, bytes] of round) state.set(rel, bytes);
              rounds++;
              applied.push({ round: rounds, title: chosen.title, ...(chosen.kind ? { kind: chosen.kind } : {}) });
              text = next.toString('utf8');
            }
          }),
        );
        if (state.get(file.rel)?.toString('utf8') === file.text) state.delete(file.rel);
        const files = state.size === 0 ? [] : await commitState(ctx, state, args);
        return {
          path: file.rel,
          server: server.name,
          rounds,
          stopped,
          applied,
          ...(skipped.length > 0 ? { skipped } : {}),
          dry_run: args.dry_run === true,
          before: { counts: counts(before), diagnostics: before.filter(keep).map(diagnosticRow) },
          after: { counts: counts(after), diagnostics: after.filter(keep).map(diagnosticRow) },
          files,
        };
      },
    }),
  ] as ToolDef[];
}
