/**
 * Which tests cover a symbol or a file, and how to run them: test code calling it (up to two
 * hops, so a test reaching it through a helper counts) plus test files depending on its file.
 */
import * as path from 'node:path';
import type { GetDependentsResult, NodeJson, NodeSummary, Origin } from '../engine/engine';
import { ContextReader, rowError, type RowError } from './context-common';
import { ToolInputError } from './registry';

/** Caller hops walked from the target: a test → helper → target chain is two. */
const TEST_CALLER_DEPTH = 2;
/** Callers fetched per target symbol (tests are filtered from these). */
const CALLER_LIMIT = 200;
/** Symbols of a file examined in path mode (their callers are walked one by one). */
const MAX_FILE_SYMBOLS = 200;

/** A test (or test helper) that reaches the target through calls. */
export interface TestSymbolRow {
  id: string;
  qualified: string;
  path: string;
  line: number;
  /** Call hops from the test to the target (1 = calls it directly; 0 = the target is this test). */
  depth: number;
  /** Weakest tier on the way, as `get_callers` reports it for the row. */
  origin: Origin;
  /** The symbol it calls on the way, when that is not the target itself (depth 2). */
  via?: string;
  /** The target symbol it reaches (path mode: one of the file's symbols). */
  covers: string;
  /** Normalised runner (`jest`, `pytest`, `gotest`, …) when the engine knows it. */
  runner?: string;
  /** False for helpers in test files that are not tests themselves. */
  is_test: boolean;
}

/** A test file that covers the target, and why. */
export interface TestFileRow {
  path: string;
  /** `calls` (test code in it calls the target), `imports` (it depends on the target's file), `self` (it is the target's own test file). */
  reasons: ('calls' | 'imports' | 'self')[];
  /** Runners of the tests declared in the file. */
  runners: string[];
  /** Tests of this file among `tests`. */
  tests: number;
}

/** A command that runs the covering tests of one runner. */
export interface TestCommand {
  runner: string;
  /** Directory to run it from, repository-relative (`.` is the root). */
  cwd: string;
  command: string;
}

/** What `get_test_targets` (and the tests block of `get_editing_context`) returns. */
export interface TestTargets {
  tests: TestSymbolRow[];
  test_files: TestFileRow[];
  commands: TestCommand[];
  /** Runners seen with no obvious command (`junit`: Maven and Gradle differ). */
  no_command?: string[];
  /** Present when nothing covers the target, or when path mode examined only part of the file. */
  note?: string;
  /** Lookups that failed (one symbol's callers, the file's dependents), reported not thrown. */
  errors?: RowError[];
}

/** Test callers of one symbol within `TEST_CALLER_DEPTH` hops. */
function testCallers(reader: ContextReader, targetId: string, out: Map<string, TestSymbolRow>): void {
  const result = reader.callers(targetId, TEST_CALLER_DEPTH, CALLER_LIMIT);
  for (const row of result.callers) {
    const c = row.caller;
    if (!reader.isTestCode(c)) continue;
    const prior = out.get(c.id);
    if (prior && prior.depth <= row.depth) continue;
    const full = reader.node(c.id);
    const runner = full?.test_runner;
    out.set(c.id, {
      id: c.id,
      qualified: c.qual_name,
      path: c.file_path,
      line: c.start_line,
      depth: row.depth,
      origin: row.origin,
      ...(row.callee ? { via: row.callee } : {}),
      covers: targetId,
      ...(runner ? { runner } : {}),
      is_test: c.is_test === true,
    });
  }
}

/** Test files depending on a file (file-level: imports, calls, references into it). */
export function testDependentFiles(reader: ContextReader, rel: string): { paths: Map<string, 'imports' | 'calls'>; error?: RowError } {
  const paths = new Map<string, 'imports' | 'calls'>();
  try {
    const deps = reader.query<GetDependentsResult>('get_dependents', { id: rel, depth: 1, limit: 1000 });
    for (const row of deps.nodes) {
      if (row.kind !== 'file' || !reader.isTestCode(row)) continue;
      paths.set(row.file_path, row.edge_kinds.includes('imports') || row.edge_kinds.includes('re_exports') ? 'imports' : 'calls');
    }
    return { paths };
  } catch (error) {
    return { paths, error: rowError(error) };
  }
}

/** Runners of the tests a file declares, sorted. */
function fileRunners(syms: readonly NodeJson[]): string[] {
  const runners = new Set<string>();
  for (const s of syms) {
    const r = s.test_runner;
    if (r) runners.add(r);
  }
  return [...runners].sort();
}

/** Quotes a shell word when it needs it. */
function sh(word: string): string {
  return /^[\w./:@=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A path relative to a repository-relative directory (`.` is the root). */
function relTo(cwd: string, rel: string): string {
  return cwd === '.' ? rel : path.posix.relative(cwd, rel);
}

/**
 * One command per runner, from documented conventions: JS runners through `npx` from the nearest
 * `package.json`; pytest node ids from the nearest pytest config (else the root); `go test` on the
 * package directory from the nearest `go.mod` with `-run` naming the tests; `cargo test` from
 * the nearest `Cargo.toml`. JUnit has no single obvious command and gets none.
 */
export function commandsFor(reader: ContextReader, tests: readonly TestSymbolRow[], files: readonly TestFileRow[]): { commands: TestCommand[]; none: string[] } {
  const byRunner = new Map<string, { files: Set<string>; tests: TestSymbolRow[] }>();
  const group = (runner: string): { files: Set<string>; tests: TestSymbolRow[] } => {
    let g = byRunner.get(runner);
    if (!g) byRunner.set(runner, (g = { files: new Set(), tests: [] }));
    return g;
  };
  for (const f of files) for (const r of f.runners) group(r).files.add(f.path);
  for (const t of tests) if (t.runner && t.is_test) group(t.runner).tests.push(t);
  const commands: TestCommand[] = [];
  const none: string[] = [];
  for (const [runner, g] of [...byRunner.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const files = [...g.files].sort();
    const firstDir = path.posix.dirname(files[0] ?? g.tests[0]?.path ?? '.');
    switch (runner) {
      case 'jest':
      case 'vitest':
      case 'mocha':
      case 'node-test': {
        const cwd = reader.nearestDirWith(firstDir, ['package.json']) ?? '.';
        const args = files.map((f) => sh(relTo(cwd, f))).join(' ');
        const head = { jest: 'npx jest', vitest: 'npx vitest run', mocha: 'npx mocha', 'node-test': 'node --test' }[runner];
        commands.push({ runner, cwd, command: `${head} ${args}` });
        break;
      }
      case 'pytest': {
        const cwd = reader.nearestDirWith(firstDir, ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini']) ?? '.';
        // Node ids name the covering tests exactly; files with no listed test run whole.
        const named = new Set(g.tests.map((t) => t.path));
        const ids = [
          ...g.tests.map((t) => `${relTo(cwd, t.path)}::${t.qualified.split('.').join('::')}`),
          ...files.filter((f) => !named.has(f)).map((f) => relTo(cwd, f)),
        ];
        commands.push({ runner, cwd, command: `python -m pytest ${[...new Set(ids)].sort().map(sh).join(' ')}` });
        break;
      }
      case 'unittest': {
        const modules = files.map((f) => f.replace(/\.py$/, '').split('/').join('.'));
        commands.push({ runner, cwd: '.', command: `python -m unittest ${modules.map(sh).join(' ')}` });
        break;
      }
      case 'gotest': {
        const cwd = reader.nearestDirWith(firstDir, ['go.mod']) ?? '.';
        const pkgs = [...new Set(files.map((f) => path.posix.dirname(f)))].map((d) => {
          const r = relTo(cwd, d);
          return r === '' ? '.' : `./${r}`;
        });
        const names = [...new Set(g.tests.filter((t) => !t.qualified.includes('.')).map((t) => t.qualified))].sort();
        const run = names.length > 0 ? ` -run ${sh(`^(${names.join('|')})$`)}` : '';
        commands.push({ runner, cwd, command: `go test ${pkgs.sort().join(' ')}${run}` });
        break;
      }
      case 'cargo-test': {
        const cwd = reader.nearestDirWith(firstDir, ['Cargo.toml']) ?? '.';
        const names = [...new Set(g.tests.map((t) => t.qualified))];
        commands.push({ runner, cwd, command: names.length === 1 ? `cargo test ${sh(names[0]!)}` : 'cargo test' });
        break;
      }
      default:
        none.push(runner);
    }
  }
  return { commands, none };
}

/** The row of a test that is itself the target (or declared in the target file). */
function selfRow(full: NodeJson | null, id: string, qualified: string, file: string, line: number): TestSymbolRow {
  const runner = full?.test_runner;
  return { id, qualified, path: file, line, depth: 0, origin: 'ast_resolved', covers: id, ...(runner ? { runner } : {}), is_test: true };
}

/**
 * Tests covering a symbol (`id`) or every symbol of a file (`path`): test symbols and test-file
 * helpers calling it within two hops, test files depending on its file, runners and commands.
 */
export function findTestTargets(reader: ContextReader, target: { symbol: NodeSummary } | { path: string }): TestTargets {
  const found = new Map<string, TestSymbolRow>();
  const errors: RowError[] = [];
  let filePath: string;
  let note: string | undefined;
  if ('symbol' in target) {
    const t = target.symbol;
    filePath = t.file_path;
    if (t.kind !== 'file') testCallers(reader, t.id, found);
    // A test covers itself: asking about a test means running it.
    if (t.is_test) found.set(t.id, selfRow(reader.node(t.id), t.id, t.qual_name, t.file_path, t.start_line));
  } else {
    filePath = target.path;
    const syms = reader.fileSymbols(filePath).filter((s) => s.kind !== 'file' && s.kind !== 'import');
    for (const s of syms) if (s.is_test) found.set(s.id, selfRow(s, s.id, s.qualified, s.path, s.start_line));
    for (const s of syms.slice(0, MAX_FILE_SYMBOLS)) {
      try {
        testCallers(reader, s.id, found);
      } catch (error) {
        errors.push(rowError(error));
      }
    }
    if (syms.length > MAX_FILE_SYMBOLS) note = `only the first ${MAX_FILE_SYMBOLS} of ${syms.length} symbols of ${filePath} were examined`;
  }
  const tests = [...found.values()].sort((a, b) => a.depth - b.depth || a.path.localeCompare(b.path) || a.line - b.line || a.id.localeCompare(b.id));

  const files = new Map<string, Set<TestFileRow['reasons'][number]>>();
  const addFile = (p: string, reason: TestFileRow['reasons'][number]): void => {
    let s = files.get(p);
    if (!s) files.set(p, (s = new Set()));
    s.add(reason);
  };
  // A test file covers itself.
  if (filePath !== '' && reader.isTestFile(filePath)) addFile(filePath, 'self');
  for (const t of tests) addFile(t.path, t.depth === 0 ? 'self' : 'calls');
  if (filePath !== '') {
    const deps = testDependentFiles(reader, filePath);
    for (const [p, reason] of deps.paths) addFile(p, reason);
    if (deps.error) errors.push(deps.error);
  }
  const testFiles: TestFileRow[] = [...files.entries()]
    .map(([p, reasons]) => ({
      path: p,
      reasons: [...reasons].sort(),
      runners: fileRunners(reader.fileSymbols(p)),
      tests: tests.filter((t) => t.path === p && t.is_test).length,
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  const { commands, none } = commandsFor(reader, tests, testFiles);
  if (tests.length === 0 && testFiles.length === 0) {
    note = note ?? `no covering tests found: no test code calls it within ${TEST_CALLER_DEPTH} hops and no test file depends on ${filePath || 'it'}`;
  }
  return {
    tests,
    test_files: testFiles,
    commands,
    ...(none.length > 0 ? { no_command: none } : {}),
    ...(note ? { note } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  };
}

/** Resolves the `{ id } | { path }` argument pair of `get_test_targets` (exactly one is required). */
export function testTargetOf(reader: ContextReader, args: { id?: string; path?: string }): { symbol: NodeSummary } | { path: string } {
  if ((args.id === undefined) === (args.path === undefined)) {
    throw new ToolInputError('invalid_argument', 'get_test_targets: pass exactly one of id (a symbol) or path (a file)');
  }
  if (args.id !== undefined) {
    const s = reader.symbol(args.id).node;
    return s.kind === 'file' ? { path: s.file_path } : { symbol: s };
  }
  const rel = args.path!.replace(/^\.\//, '');
  if (rel.trim() === '') throw new ToolInputError('invalid_argument', 'get_test_targets: path must not be empty');
  if (!reader.fileNode(rel)) {
    throw new ToolInputError('not_found', `get_test_targets: no indexed file ${JSON.stringify(rel)} (paths are repository-relative)`);
  }
  return { path: rel };
}
