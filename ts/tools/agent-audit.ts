/**
 * The agent-config audit (`gortex://audit`): CLAUDE.md, AGENTS.md and Cursor/Windsurf/Copilot
 * rule files checked against the repository — inline code spans naming paths that do not exist or
 * symbols the graph does not hold, and files large enough to crowd every agent session. A file
 * or rules folder reached through a symlink that leaves the repository is not read (it is listed
 * under `refused`), and no file is read past `AUDIT_MAX_BYTES`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../workspace/context';

/** Agent instruction files looked for at the repository root. */
const AUDIT_FILES = ['CLAUDE.md', 'AGENTS.md', '.cursorrules', '.windsurfrules', '.github/copilot-instructions.md'];
/** Directories whose rule files (any depth) are audited. */
const AUDIT_DIRS = ['.cursor/rules', '.windsurf/rules', '.antigravity/rules'];
/** Rule files inside those directories. */
const AUDIT_EXTENSIONS = /\.(md|mdc|txt)$/i;
/** An instruction file above this many estimated tokens is flagged: it is loaded into every session. */
const AUDIT_LARGE_TOKENS = 5000;
/** Most files audited, bytes read of each (a larger file is audited on its first bytes, `truncated`), and code spans checked per file. */
const AUDIT_MAX_FILES = 50;
const AUDIT_MAX_BYTES = 1024 * 1024;
const AUDIT_MAX_REFS = 200;
/** A bare file name with one of these extensions is read as a path reference. */
const SOURCE_EXTENSIONS = /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|c|h|cc|cpp|cxx|hpp|hh|cs|kt|kts|php|rb|lua|ex|exs|erl|elm|dart|hs|zig|swift|scala|vue|svelte|proto|sql|json|ya?ml|toml|md|mdc|txt|sh|lock|cfg|ini|html|css)$/;

/** An instruction file or rules folder that was not read, and why. */
interface Refusal {
  path: string;
  reason: string;
}

/** The repository's real root, and where `rel` really is when that is inside it (links resolved). */
interface RootedPaths {
  /** `fs.realpathSync(root)`. */
  real: string;
  /** The real path of `rel`; `undefined` when it does not exist, `outside` when a link leads out of the root. */
  resolve(rel: string): string | undefined | 'outside';
}

function rootedPaths(root: string): RootedPaths {
  const real = fs.realpathSync(root);
  return {
    real,
    resolve: (rel) => {
      let target: string;
      try {
        target = fs.realpathSync(path.join(root, rel));
      } catch {
        return undefined;
      }
      return target === real || target.startsWith(real + path.sep) ? target : 'outside';
    },
  };
}

const OUTSIDE = 'a symlink leads outside the repository: not read';

/** Appends the rule files under `rel` (any depth, by name) to `out`, and links leading out of the root to `refused`. */
function listRuleFiles(paths: RootedPaths, rel: string, out: string[], refused: Refusal[]): void {
  const dir = paths.resolve(rel);
  if (dir === undefined) return;
  if (dir === 'outside') {
    refused.push({ path: rel, reason: OUTSIDE });
    return;
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) listRuleFiles(paths, child, out, refused);
    else if (!AUDIT_EXTENSIONS.test(e.name)) continue;
    else if (e.isFile()) out.push(child);
    else if (e.isSymbolicLink()) {
      // A linked rule file is read when it stays inside the repository; a linked folder is not entered (it could loop).
      const target = paths.resolve(child);
      if (target === 'outside') refused.push({ path: child, reason: OUTSIDE });
      else if (target !== undefined && fs.statSync(target).isFile()) out.push(child);
    }
  }
}

/** At most `AUDIT_MAX_BYTES` of the regular file at `real` (never through a symlink), and its size. */
function readPrefix(real: string): { size: number; text: string; bytesRead: number } {
  const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, AUDIT_MAX_BYTES));
    let bytesRead = 0;
    while (bytesRead < buffer.length) {
      const n = fs.readSync(fd, buffer, bytesRead, buffer.length - bytesRead, bytesRead);
      if (n === 0) break;
      bytesRead += n;
    }
    return { size, text: buffer.subarray(0, bytesRead).toString('utf8'), bytesRead };
  } finally {
    fs.closeSync(fd);
  }
}

/** A reference in an instruction file that the repository does not back. */
interface AuditFinding {
  ref: string;
  line: number;
}

/** Inline code spans outside fenced blocks, with their line numbers. */
function codeSpans(text: string): { span: string; line: number }[] {
  const spans: { span: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const m of raw.matchAll(/`([^`\n]+)`/g)) spans.push({ span: m[1]!.trim(), line: i + 1 });
  });
  return spans;
}

/** A path reference in an instruction file, repository-relative; `single` when it is a bare file name. */
interface PathRef {
  path: string;
  single: boolean;
}

/** `src/a.ts`, `./lib/`, `src/a.ts:12`, `package.json` → a path to check; undefined when not path-like or unverifiable (globs, absolute, URLs). */
function pathRef(span: string): PathRef | undefined {
  if (/\s|:\/\/|[*?{}[\]<>$~]/.test(span) || span.startsWith('/') || span.includes('..')) return undefined;
  const bare = span.replace(/^\.\//, '').replace(/:\d+(:\d+)?$/, '');
  if (bare.includes('/') && /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(bare)) return { path: bare, single: false };
  if (/^[\w.@-]+$/.test(bare) && SOURCE_EXTENSIONS.test(bare)) return { path: bare, single: true };
  return undefined;
}

/** A path exists at the root, or — for a bare file name, which docs often use loosely — as any indexed file's basename. */
function pathKnown(ctx: ToolContext, ref: PathRef): boolean {
  if (fs.existsSync(path.join(ctx.root, ref.path))) return true;
  if (!ref.single) return false;
  const hits = ctx.engine.query('find_files', { query: ref.path, limit: 1 }, { repo: ctx.repo }).results;
  return hits.length > 0 && hits[0]!.match === 'exact_basename';
}

/**
 * `fooBar`, `FooBar`, `Store.save`, `save()` → the name to look up. Only identifier shapes that are
 * almost never prose (a camelCase hump, a qualified name, a call) are checked; ALL_CAPS names are
 * usually environment variables and are skipped.
 */
function symbolRef(span: string): string | undefined {
  const m = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(\))?$/.exec(span);
  if (!m) return undefined;
  const name = m[1]!;
  if (/^[A-Z0-9_]+$/.test(name)) return undefined;
  const shaped = m[2] !== undefined || name.includes('.') || /[a-z][A-Z]/.test(name) || /^[A-Z][a-z0-9]+[A-Z]/.test(name);
  return shaped ? name : undefined;
}

/** Whether the graph holds a symbol of that name (several matches count). */
function symbolKnown(ctx: ToolContext, name: string): boolean {
  try {
    ctx.engine.query('get_symbol', { id: name }, { repo: ctx.repo });
    return true;
  } catch (error) {
    // Several matches still mean the name exists.
    return (error as { code?: string }).code === 'ambiguous';
  }
}

/** Agent instruction files checked against the repository: dead paths, unknown symbols, size. */
export function audit(ctx: ToolContext): unknown {
  const paths = rootedPaths(ctx.root);
  const refused: Refusal[] = [];
  const found = AUDIT_FILES.filter((f) => {
    const real = paths.resolve(f);
    if (real === 'outside') refused.push({ path: f, reason: OUTSIDE });
    return typeof real === 'string' && real !== 'outside' && fs.statSync(real).isFile();
  });
  for (const dir of AUDIT_DIRS) listRuleFiles(paths, dir, found, refused);
  const files = found.slice(0, AUDIT_MAX_FILES).flatMap((rel) => {
    const real = paths.resolve(rel);
    // Gone (or relinked out of the root) since it was listed.
    if (real === undefined || real === 'outside') return [];
    const { size: bytes, text, bytesRead } = readPrefix(real);
    const estTokens = Math.ceil(bytes / 4);
    const deadPaths: AuditFinding[] = [];
    const unknownSymbols: AuditFinding[] = [];
    let pathsChecked = 0;
    let symbolsChecked = 0;
    const checked = new Map<string, boolean>();
    for (const { span, line } of codeSpans(text).slice(0, AUDIT_MAX_REFS)) {
      const p = pathRef(span);
      if (p !== undefined) {
        pathsChecked++;
        if (!pathKnown(ctx, p)) deadPaths.push({ ref: span, line });
        continue;
      }
      const s = symbolRef(span);
      if (s !== undefined) {
        symbolsChecked++;
        if (!checked.has(s)) checked.set(s, symbolKnown(ctx, s));
        if (!checked.get(s)) unknownSymbols.push({ ref: span, line });
      }
    }
    const row = {
      path: rel,
      bytes,
      bytes_read: bytesRead,
      truncated: bytesRead < bytes,
      lines: text.split('\n').length,
      est_tokens: estTokens,
      large: estTokens > AUDIT_LARGE_TOKENS,
      paths_checked: pathsChecked,
      symbols_checked: symbolsChecked,
      dead_paths: deadPaths,
      unknown_symbols: unknownSymbols,
    };
    return [row];
  });
  return {
    searched: [...AUDIT_FILES, ...AUDIT_DIRS.map((d) => `${d}/**`)],
    files,
    summary: {
      files: files.length,
      dead_paths: files.reduce((n, f) => n + f.dead_paths.length, 0),
      unknown_symbols: files.reduce((n, f) => n + f.unknown_symbols.length, 0),
      large_files: files.filter((f) => f.large).length,
    },
    notes: [
      'paths and symbols are taken from inline code spans outside fenced blocks',
      'a path is dead when it does not exist under the repository root (a bare file name also counts when any indexed file has that name)',
      'an unknown symbol is a camelCase, qualified or call-shaped name the graph does not hold: stale, or defined outside this repository',
      `a file above ${AUDIT_LARGE_TOKENS} estimated tokens (bytes / 4) is flagged large: it is loaded into every agent session`,
      `only the first ${AUDIT_MAX_BYTES} bytes of a file are read and checked (truncated: true, lines counted in what was read); bytes and est_tokens are the whole file's`,
      'a symlink is followed only while it stays inside the repository; files and folders it would leave for are listed under refused, unread',
    ],
    ...(refused.length > 0 ? { refused } : {}),
    ...(found.length > AUDIT_MAX_FILES ? { truncated: true, discovered: found.length } : {}),
  };
}
