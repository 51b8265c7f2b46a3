/**
 * `gortex eval refactor`: the refactoring tools on real code. On the pinned parity corpora of
 * TypeScript (zod), Python (requests), Go (gin) and Java (gson) it applies a seeded random sample
 * of renames, moves, inlines and safe deletes, one at a time on a git working copy, and after each
 * one that was applied checks with the language's own tools that the project still builds or
 * type-checks (`tsc --noEmit`; `python -m compileall` + pyright; `go build` + `go vet`; `javac`),
 * counting only diagnostics the baseline did not have, and that the graph the tool left (updated
 * incrementally) equals a clean index of the same files. Then the copy is reset and the index
 * synced. The tools are called through the call pipeline the CLI hands in (`EvalSession.call`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Engine, GraphDump } from '../engine/engine';
import { refactorFacts } from '../engine/engine';
import { ensureCorpus, PARITY_CORPORA, corpusLabel, type ParityCorpus } from './parity-corpora';
import { prng, sample } from '../support/random';

/** The operations the eval samples, with the tool each calls. */
export const REFACTOR_OPS = ['rename', 'move', 'inline', 'delete'] as const;
export type RefactorOp = (typeof REFACTOR_OPS)[number];

/** The languages it covers. */
export const REFACTOR_LANGUAGES = ['typescript', 'python', 'go', 'java'] as const;
export type RefactorLanguage = (typeof REFACTOR_LANGUAGES)[number];

/** A tool call's outcome as the eval needs it. */
export type EvalCallOutcome = { ok: true; value: any } | { ok: false; code: string; message: string };

/** One open repository the eval drives. */
export interface EvalSession {
  /** Calls a tool through the pipeline. */
  call(tool: string, args: Record<string, unknown>): Promise<EvalCallOutcome>;
  engine: Engine;
  /** The repository's name in `engine`. */
  repo: string;
  close(): Promise<void> | void;
}

/** Options of `runRefactorEval`. */
export interface RefactorEvalOptions {
  languages: readonly RefactorLanguage[];
  /** Operations sampled per operation and language. */
  perOp: number;
  seed: number;
  cacheDir: string;
  /** Opens `root` (a git working copy) for tool calls. */
  open: (root: string) => Promise<EvalSession>;
  /** Compare the incrementally updated graph with a clean index after each applied operation (default true). */
  graphCheck?: boolean;
  log?: (message: string) => void;
}

/** What one sampled operation did. */
export interface OpResult {
  language: RefactorLanguage;
  op: RefactorOp;
  id: string;
  args: Record<string, unknown>;
  outcome: 'applied' | 'refused' | 'error';
  /** The refusal's code and message, or the error. */
  code?: string;
  message?: string;
  /** Diagnostics the build check found that the baseline did not have (applied only). */
  new_diagnostics?: string[];
  /** Whether the incremental graph equalled a clean index (applied only; undefined when not checked). */
  graph_equal?: boolean;
  graph_diff?: { nodes: number; edges: number; sample: string[] };
  ms: number;
}

/** One language's run. */
export interface LanguageRun {
  language: RefactorLanguage;
  corpus: string;
  baseline_diagnostics: number;
  ops: OpResult[];
  error?: string;
}

/** Runs a program; its exit status and output. */
function exec(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): { status: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** How a language's project is set up and checked. */
interface Project {
  language: RefactorLanguage;
  corpus: ParityCorpus;
  /** Copies the corpus into `work` and adds what the check needs. */
  prepare(corpusRoot: string, work: string, tools: string): Promise<void>;
  /** The diagnostics of the project as it is, normalised (no file or line: moves shift them). */
  check(work: string, tools: string): string[];
  /** Kinds of declaration each operation samples. */
  kinds: readonly string[];
  /** Where a moved declaration goes. */
  moveTarget(node: GraphDump['nodes'][number], rnd: () => number): string;
}

const TEST_PATH = /(^|\/)(tests?|__tests__|testdata|benchmarks?)\/|_test\.go$|\.(test|spec|test-d)\.[jt]sx?$|(^|\/)test_[^/]*\.py$|(^|\/)conftest\.py$|Test\.java$/;
const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.');
const join = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`);

const PROJECTS: Record<RefactorLanguage, Omit<Project, 'corpus'>> = {
  typescript: {
    language: 'typescript',
    kinds: ['function', 'type', 'interface', 'method', 'variable', 'constant'],
    async prepare(corpusRoot, work) {
      fs.cpSync(corpusRoot, path.join(work, 'src'), { recursive: true });
      fs.writeFileSync(
        path.join(work, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', noEmit: true, skipLibCheck: true, lib: ['es2022', 'dom'], types: [] },
          include: ['src'],
          exclude: ['src/**/benchmarks/**', 'src/**/tests/**', 'src/**/*.test.ts', 'src/**/*.test-d.ts'],
        }),
      );
    },
    check(work, tools) {
      const tsc = path.join(__dirname, '..', '..', '..', 'node_modules', '.bin', 'tsc');
      const bin = fs.existsSync(tsc) ? tsc : 'tsc';
      const r = exec(bin, ['-p', '.', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', path.join(tools, `tsc-${path.basename(work)}.tsbuildinfo`)], work);
      return r.out.split('\n').flatMap((l) => {
        const m = /\): error (TS\d+: .*)$/.exec(l);
        return m ? [m[1]!] : [];
      });
    },
    moveTarget: (n) => join(dirOf(n.file_path), `moved-${n.name}.ts`),
  },
  python: {
    language: 'python',
    kinds: ['function', 'type', 'method'],
    async prepare(corpusRoot, work, tools) {
      fs.cpSync(path.join(corpusRoot, 'src'), path.join(work, 'src'), { recursive: true });
      if (!fs.existsSync(path.join(tools, 'node_modules', '.bin', 'pyright'))) {
        const r = exec('npm', ['install', '--prefix', tools, '--no-audit', '--no-fund', '--silent', 'pyright@1.1.414'], tools);
        if (r.status !== 0) throw new Error(`installing pyright failed: ${r.out.slice(0, 500)}`);
      }
    },
    check(work, tools) {
      const out: string[] = [];
      const compiled = exec('python3', ['-m', 'compileall', '-q', 'src'], work);
      if (compiled.status !== 0) out.push(...compiled.out.split('\n').filter((l) => /Error/.test(l)).map((l) => `compileall: ${l.replace(/File "[^"]*", line \d+/, '')}`));
      const r = exec(path.join(tools, 'node_modules', '.bin', 'pyright'), ['--outputjson', 'src'], work);
      try {
        const json = JSON.parse(r.out.slice(r.out.indexOf('{'))) as { generalDiagnostics: { severity: string; rule?: string; message: string }[] };
        for (const d of json.generalDiagnostics) if (d.severity === 'error') out.push(`${d.rule ?? 'error'}: ${d.message.split('\n')[0]}`);
      } catch {
        out.push(`pyright: unreadable output ${r.out.slice(0, 200)}`);
      }
      return out;
    },
    moveTarget: (n) => join(dirOf(n.file_path), `moved_${n.name.toLowerCase()}.py`),
  },
  go: {
    language: 'go',
    kinds: ['function', 'method', 'interface', 'type'],
    async prepare(corpusRoot, work) {
      fs.cpSync(corpusRoot, work, { recursive: true });
      exec('chmod', ['-R', 'u+w', work], work);
    },
    check(work) {
      const env = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
      const build = exec('go', ['build', './...'], work, env);
      const vet = build.status === 0 ? exec('go', ['vet', './...'], work, env) : { status: 0, out: '' };
      return `${build.out}\n${vet.out}`
        .split('\n')
        .filter((l) => /^\S+\.go:\d+:\d+: /.test(l) || /^vet: /.test(l))
        .map((l) => l.replace(/^\S+\.go:\d+:\d+: /, ''));
    },
    // Half within the package, half into a new package.
    moveTarget: (n, rnd) => (rnd() < 0.5 ? join(dirOf(n.file_path), `moved_${n.name.toLowerCase()}.go`) : join(dirOf(n.file_path), 'moved')),
  },
  java: {
    language: 'java',
    kinds: ['type', 'interface', 'method'],
    async prepare(corpusRoot, work, tools) {
      fs.cpSync(path.join(corpusRoot, 'com'), path.join(work, 'com'), { recursive: true });
      const jar = path.join(tools, 'error_prone_annotations-2.27.0.jar');
      if (!fs.existsSync(jar)) {
        const res = await fetch('https://repo1.maven.org/maven2/com/google/errorprone/error_prone_annotations/2.27.0/error_prone_annotations-2.27.0.jar');
        if (!res.ok) throw new Error(`downloading error_prone_annotations failed: HTTP ${res.status}`);
        fs.writeFileSync(jar, Buffer.from(await res.arrayBuffer()));
      }
    },
    check(work, tools) {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-javac-'));
      const sources: string[] = [];
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(path.join(work, d), { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(d, e.name));
          else if (e.name.endsWith('.java')) sources.push(path.join(d, e.name));
        }
      };
      walk('com');
      const r = exec('javac', ['-proc:none', '-nowarn', '-encoding', 'UTF-8', '-Xmaxerrs', '1000', '-d', out, '-cp', path.join(tools, 'error_prone_annotations-2.27.0.jar'), ...sources], work);
      fs.rmSync(out, { recursive: true, force: true });
      return r.out.split('\n').flatMap((l) => {
        const m = /^\S+\.java:\d+: (error: .*)$/.exec(l);
        return m ? [m[1]!] : [];
      });
    },
    moveTarget: (n) => join(dirOf(n.file_path), 'moved'),
  },
};

/** Diagnostics in `after` beyond those of `baseline` (as multisets). */
export function newDiagnostics(baseline: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const d of baseline) left.set(d, (left.get(d) ?? 0) + 1);
  const out: string[] = [];
  for (const d of after) {
    const n = left.get(d) ?? 0;
    if (n > 0) left.set(d, n - 1);
    else out.push(d);
  }
  return out;
}

/** The difference between two graphs: nodes and edges in one and not the other. */
export function graphDifference(a: GraphDump, b: GraphDump): { nodes: number; edges: number; sample: string[] } {
  const nodes = (g: GraphDump): Set<string> => new Set(g.nodes.map((n) => `${n.id}|${n.kind}|${n.start_line}|${n.end_line}`));
  const edges = (g: GraphDump): Set<string> => new Set(g.edges.map((e) => `${e.from}|${e.kind}|${e.to}|${e.origin}`));
  const diff = (x: Set<string>, y: Set<string>): string[] => [...x].filter((k) => !y.has(k));
  const [na, nb, ea, eb] = [nodes(a), nodes(b), edges(a), edges(b)];
  const n = [...diff(na, nb).map((k) => `-node ${k}`), ...diff(nb, na).map((k) => `+node ${k}`)];
  const e = [...diff(ea, eb).map((k) => `-edge ${k}`), ...diff(eb, ea).map((k) => `+edge ${k}`)];
  return { nodes: n.length, edges: e.length, sample: [...n, ...e].slice(0, 8) };
}

const git = (work: string, ...args: string[]): string => {
  const r = exec('git', ['-c', 'user.email=eval@gortex', '-c', 'user.name=eval', ...args], work);
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`);
  return r.out;
};

/** The declarations an operation may pick, by its rules. */
function candidates(dump: GraphDump, project: Omit<Project, 'corpus'>, op: RefactorOp, work: string): GraphDump['nodes'] {
  const lang = project.language === 'typescript' ? /^(typescript|tsx)$/ : new RegExp(`^${project.language}$`);
  const base = dump.nodes.filter((n) => n.language !== null && lang.test(n.language) && n.file_path && n.start_line > 0 && !TEST_PATH.test(n.file_path) && project.kinds.includes(n.kind));
  const local = (id: string): string => id.slice(id.indexOf('::') + 2);
  switch (op) {
    case 'rename':
      return base.filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n.name) && n.name !== 'constructor' && n.name !== '__init__' && n.name !== 'main');
    case 'move':
      return base.filter((n) => !local(n.id).includes('.') && n.kind !== 'method');
    case 'delete':
      return base.filter((n) => n.name !== 'main' && n.name !== '__init__');
    case 'inline': {
      // Functions shaped for inlining (one expression); whether each call can take it is the tool's to say.
      const byFile = new Map<string, Buffer>();
      return base.filter((n) => {
        if (!['function', 'method'].includes(n.kind)) return false;
        let bytes = byFile.get(n.file_path);
        if (!bytes) {
          bytes = fs.readFileSync(path.join(work, n.file_path));
          byFile.set(n.file_path, bytes);
        }
        try {
          return refactorFacts(n.file_path, bytes, 'callable', { line: n.start_line }).refusal === undefined;
        } catch {
          return false;
        }
      });
    }
  }
}

/** The tool and arguments of one sampled operation. */
function request(op: RefactorOp, n: GraphDump['nodes'][number], project: Omit<Project, 'corpus'>, rnd: () => number): { tool: string; args: Record<string, unknown> } {
  switch (op) {
    case 'rename':
      return { tool: 'rename_symbol', args: { id: n.id, new_name: `${n.name}Rnm` } };
    case 'move':
      return { tool: 'move_symbol', args: { id: n.id, to: project.moveTarget(n, rnd) } };
    case 'inline':
      return { tool: 'inline_symbol', args: { id: n.id, delete_after: true } };
    case 'delete':
      return { tool: 'safe_delete_symbol', args: { id: n.id } };
  }
}

/** Runs the eval over `options.languages`, one language at a time; a language that cannot be set up is reported, not thrown. */
export async function runRefactorEval(options: RefactorEvalOptions): Promise<LanguageRun[]> {
  const log = options.log ?? ((): void => {});
  const tools = path.join(options.cacheDir, 'eval-tools');
  fs.mkdirSync(tools, { recursive: true });
  const { Engine } = await import('../engine/engine');
  const cleanHome = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-refactor-clean-'));
  const clean = new Engine({ home: cleanHome });
  const runs: LanguageRun[] = [];
  try {
    for (const language of options.languages) {
      const corpus = PARITY_CORPORA.find((c) => c.language === language);
      const project = PROJECTS[language];
      if (!corpus) throw new Error(`no pinned corpus for ${language}`);
      const run: LanguageRun = { language, corpus: corpusLabel(corpus), baseline_diagnostics: 0, ops: [] };
      runs.push(run);
      const work = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-refactor-')), `eval-${language}`);
      let session: EvalSession | undefined;
      try {
        const corpusRoot = await ensureCorpus(corpus, options.cacheDir, log);
        fs.mkdirSync(work, { recursive: true });
        await project.prepare(corpusRoot, work, tools);
        git(work, 'init', '-q', '-b', 'main');
        git(work, 'add', '-A');
        git(work, 'commit', '-q', '-m', 'corpus');
        log(`${language}: baseline check`);
        const baseline = project.check(work, tools);
        run.baseline_diagnostics = baseline.length;
        session = await options.open(work);
        const dump = session.engine.graphDump(session.repo, { maxNodes: 1_000_000 });
        const rnd = prng(options.seed + REFACTOR_LANGUAGES.indexOf(language) * 7919);
        // What references each declaration (structure edges aside): deletes sample half from the
        // unreferenced ones (else nearly all are refused as in use), inlines only functions with callers.
        const referenced = new Set(dump.edges.filter((e) => !['contains', 'defines', 'member_of'].includes(e.kind)).map((e) => e.to));
        const called = new Set(dump.edges.filter((e) => e.kind === 'calls').map((e) => e.to));
        for (const op of REFACTOR_OPS) {
          const all = candidates(dump, project, op, work);
          const picked =
            op === 'delete'
              ? (() => {
                  const unused = sample(all.filter((n) => !referenced.has(n.id)), Math.ceil(options.perOp / 2), rnd);
                  return [...unused, ...sample(all.filter((n) => !unused.includes(n)), options.perOp - unused.length, rnd)];
                })()
              : sample(op === 'inline' ? all.filter((n) => called.has(n.id)) : all, options.perOp, rnd);
          for (const n of picked) {
            const { tool, args } = request(op, n, project, rnd);
            const started = Date.now();
            const outcome = await session.call(tool, args);
            const result: OpResult = { language, op, id: n.id, args, outcome: outcome.ok ? 'applied' : outcome.code === 'internal' ? 'error' : 'refused', ms: 0 };
            if (!outcome.ok) {
              result.code = outcome.code;
              result.message = outcome.message.slice(0, 400);
            } else {
              // A renamed symbol renames the diagnostics that name it: those are the old ones.
              const renamedBack = (d: string): string => (op === 'rename' ? d.split(String(args.new_name)).join(n.name) : d);
              result.new_diagnostics = newDiagnostics(baseline, project.check(work, tools).map(renamedBack)).slice(0, 20);
              if (options.graphCheck !== false) {
                await clean.indexRepo(work, { force: true });
                const fresh = clean.graphDump(work, { maxNodes: 1_000_000 });
                const mine = session.engine.graphDump(session.repo, { maxNodes: 1_000_000 });
                const diff = graphDifference(mine, fresh);
                result.graph_equal = diff.nodes === 0 && diff.edges === 0;
                if (!result.graph_equal) result.graph_diff = diff;
              }
              // Back to the corpus, and the index with it.
              const changed = git(work, 'status', '--porcelain', '--untracked-files=all')
                .split('\n')
                .filter(Boolean)
                .map((l) => l.slice(3).replace(/^"|"$/g, ''));
              git(work, 'checkout', '-q', '--', '.');
              git(work, 'clean', '-qfd');
              session.engine.updateFiles(session.repo, changed);
            }
            result.ms = Date.now() - started;
            run.ops.push(result);
            log(`${language} ${op} ${n.id}: ${result.outcome}${result.code ? ` (${result.code})` : ''}${result.new_diagnostics?.length ? ` BROKE: ${result.new_diagnostics[0]}` : ''}${result.graph_equal === false ? ' GRAPH≠CLEAN' : ''}`);
          }
        }
      } catch (error) {
        run.error = (error as Error).message;
        log(`${language}: ${run.error}`);
      } finally {
        await session?.close();
        fs.rmSync(path.dirname(work), { recursive: true, force: true });
      }
    }
  } finally {
    fs.rmSync(cleanHome, { recursive: true, force: true });
  }
  return runs;
}

/** The table of a run: per language and operation, what was applied, refused (and why), broke the build, or left the graph unlike a clean index. */
export function formatRefactorEval(runs: readonly LanguageRun[], meta: { seed: number; perOp: number }): string {
  const lines = [
    `Seed ${meta.seed}, ${meta.perOp} sampled per operation and language. "broke" counts applied operations after which the language's own check reported a diagnostic the untouched corpus did not have; "graph ≠ clean" those after which the incrementally updated graph differed from a clean index of the same files.`,
    '',
    '| language (corpus) | operation | sampled | applied | refused | broke the build | graph ≠ clean | refusals (code × count) |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const run of runs) {
    if (run.error) {
      lines.push(`| ${run.language} (${run.corpus}) | – | – | – | – | – | – | failed: ${run.error.replace(/\|/g, '/').slice(0, 120)} |`);
      continue;
    }
    for (const op of REFACTOR_OPS) {
      const ops = run.ops.filter((o) => o.op === op);
      const applied = ops.filter((o) => o.outcome === 'applied');
      const refused = ops.filter((o) => o.outcome !== 'applied');
      const codes = new Map<string, number>();
      for (const r of refused) codes.set(r.code ?? 'error', (codes.get(r.code ?? 'error') ?? 0) + 1);
      const broke = applied.filter((o) => (o.new_diagnostics?.length ?? 0) > 0).length;
      const graph = applied.filter((o) => o.graph_equal === false).length;
      lines.push(
        `| ${run.language} (${run.corpus}) | ${op} | ${ops.length} | ${applied.length} | ${refused.length} | ${broke} | ${graph} | ${[...codes].map(([c, n]) => `${c} × ${n}`).join(', ') || '–'} |`,
      );
    }
  }
  return lines.join('\n');
}
