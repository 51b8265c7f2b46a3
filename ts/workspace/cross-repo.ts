/**
 * Cross-repository edges: a reference that leaves repository A (an `external::<module>…` stub of
 * its graph) is linked to the symbol repository B declares when B *is* that module — its
 * `package.json` name, its `go.mod` module path, its Cargo package name or one of its top-level
 * Python packages — and B declares exactly one fitting symbol of that name there. Only imports
 * prove a link: a name that merely looks alike is never joined.
 *
 * Each repository keeps its own graph; this module links them. A's stubs and the references that
 * reach them come from napi `externalRefs`; "where the stub points" is the Go package directory or
 * the Python module path. The daemon's workspace (`ts/daemon/workspace.ts`) recomputes the edges
 * when any graph changed, told by the identity of each repository's last pass report, so checking
 * costs no native call. The scope stage (`ts/calls/scope.ts`) appends them to `get_callers` and
 * `find_usages` answers (`repo`, `cross_repo: true`), and `workspace_info` counts them per pair of
 * repositories. A call that narrows nothing (no `repo`, `project`, `scope`, active project or
 * bound repositories) goes to the session's repository without building the workspace's rows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../engine/engine';

/** One reference from one repository into another. */
export interface CrossEdge {
  from_repo: string;
  from: string;
  from_name: string;
  from_kind: string;
  /** File and line of the reference in `from_repo`. */
  path: string;
  line: number;
  kind: string;
  origin: string;
  to_repo: string;
  to: string;
  to_name: string;
  to_path: string;
  /** The external target it came from (`@demo/lib.sharedHelper`). */
  via: string;
}

/** What a repository is imported as. */
interface Identity {
  module: string;
  /** Separator between the module and the member in stub targets. */
  style: 'js' | 'go' | 'python' | 'rust';
}

/** Edge kinds that link (an import edge names a module, not a symbol). */
const LINKED_KINDS = new Set(['calls', 'instantiates', 'references', 'extends', 'implements', 'uses_type']);

/** The identities of the repository at `root`, from its manifests. */
export function identitiesOf(root: string): Identity[] {
  const out: Identity[] = [];
  const read = (file: string): string | undefined => {
    try {
      return fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const pkg = read('package.json');
  if (pkg) {
    try {
      const name = (JSON.parse(pkg) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '') out.push({ module: name, style: 'js' });
    } catch {
      /* a broken package.json names nothing */
    }
  }
  const gomod = read('go.mod');
  const module = gomod ? /^module\s+(\S+)/m.exec(gomod)?.[1] : undefined;
  if (module) out.push({ module, style: 'go' });
  const cargo = read('Cargo.toml');
  const crate = cargo ? /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(cargo)?.[1] : undefined;
  if (crate) out.push({ module: crate.replace(/-/g, '_'), style: 'rust' });
  // Python: top-level packages (folders with __init__.py) at the root or under src/.
  for (const base of ['.', 'src']) {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(path.join(root, base), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isDirectory() && !e.name.startsWith('.') && !/^(tests?|docs?|examples?)$/.test(e.name) && fs.existsSync(path.join(root, base, e.name, '__init__.py'))) {
        out.push({ module: e.name, style: 'python' });
      }
    }
  }
  return out;
}

/** Splits a stub target of `identity` into the sub-path and the member, or undefined when it is not that module's. */
function splitTarget(target: string, identity: Identity): { sub: string; member: string } | undefined {
  const m = identity.module;
  if (!target.startsWith(m)) return undefined;
  const rest = target.slice(m.length);
  if (identity.style === 'rust') {
    if (!rest.startsWith('::')) return undefined;
    const parts = rest.slice(2).split('::');
    return { sub: parts.slice(0, -1).join('/'), member: parts.at(-1)! };
  }
  if (identity.style === 'python') {
    if (!rest.startsWith('.')) return undefined;
    const parts = rest.slice(1).split('.');
    return { sub: [m, ...parts.slice(0, -1)].join('/'), member: parts.at(-1)! };
  }
  // js and go: `<module>[/sub/path].<Member>`.
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('.')) return undefined;
  const dot = rest.lastIndexOf('.');
  if (dot < 0) return undefined;
  const member = rest.slice(dot + 1);
  const sub = rest.slice(0, dot).replace(/^\//, '');
  if (member === '' || member === 'default') return undefined;
  return { sub, member };
}

/** One repository as the linker sees it. */
export interface LinkedRepo {
  name: string;
  root: string;
  engine: Engine;
  /** Engine key (root) of the repository. */
  key: string;
}

interface SymbolRow {
  id: string;
  name: string;
  qualified?: string;
  kind: string;
  path: string;
  exported?: boolean;
}

/** The symbol `member` of B that a stub can mean: exported, named exactly, under the sub-path for Go and Python. */
function resolveIn(b: LinkedRepo, identity: Identity, sub: string, member: string): SymbolRow | undefined {
  let rows: SymbolRow[];
  try {
    rows = (b.engine.query('search_symbols', { query: member, limit: 50 }, { repo: b.key }) as { results: SymbolRow[] }).results;
  } catch {
    return undefined;
  }
  const fitting = rows.filter((r) => r.name === member && r.exported !== false && r.kind !== 'file' && r.kind !== 'import' && !(r.qualified ?? '').includes('.'));
  const placed =
    identity.style === 'go'
      ? fitting.filter((r) => path.posix.dirname(r.path) === (sub === '' ? '.' : sub))
      : identity.style === 'python'
        ? fitting.filter((r) => r.path.replace(/^src\//, '').startsWith(`${sub}/`) || r.path.replace(/^src\//, '').replace(/\.py$/, '') === sub)
        : fitting;
  // Exactly one candidate, or nothing: a link must be proven, not guessed.
  return placed.length === 1 ? placed[0] : undefined;
}

/** Links every repository's external references to the other repositories. */
export function linkRepos(repos: readonly LinkedRepo[]): CrossEdge[] {
  const identities = repos.map((r) => ({ repo: r, ids: identitiesOf(r.root) }));
  const edges: CrossEdge[] = [];
  for (const a of repos) {
    let externals: { id: string; target: string; refs: { from: string; from_name: string; from_kind: string; path: string; kind: string; origin: string; line: number }[] }[];
    try {
      externals = a.engine.externalRefs(a.key);
    } catch {
      continue;
    }
    const memo = new Map<string, { b: LinkedRepo; symbol: SymbolRow } | null>();
    for (const ext of externals) {
      let link = memo.get(ext.target);
      if (link === undefined) {
        link = null;
        for (const { repo: b, ids } of identities) {
          if (b === a) continue;
          for (const identity of ids) {
            const split = splitTarget(ext.target, identity);
            if (!split) continue;
            const symbol = resolveIn(b, identity, split.sub, split.member);
            if (symbol) link = { b, symbol };
            break;
          }
          if (link) break;
        }
        memo.set(ext.target, link);
      }
      if (!link) continue;
      for (const ref of ext.refs) {
        if (!LINKED_KINDS.has(ref.kind)) continue;
        edges.push({
          from_repo: a.name,
          from: ref.from,
          from_name: ref.from_name,
          from_kind: ref.from_kind,
          path: ref.path,
          line: ref.line,
          kind: ref.kind,
          origin: ref.origin,
          to_repo: link.b.name,
          to: link.symbol.id,
          to_name: link.symbol.qualified ?? link.symbol.name,
          to_path: link.symbol.path,
          via: ext.target,
        });
      }
    }
  }
  return edges.sort((x, y) => `${x.from_repo}\0${x.from}\0${x.to}\0${x.line}`.localeCompare(`${y.from_repo}\0${y.from}\0${y.to}\0${y.line}`));
}
