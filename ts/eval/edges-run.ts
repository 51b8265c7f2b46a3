/**
 * Running `gortex eval edges`: fetch each pinned corpus, make its compiler-truth SCIP index with the
 * real indexer (cached per pin and indexer version), index it with gortex, score the call edges —
 * and, with enrichment, score them again after the language servers have had their say.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Engine } from '../engine/engine';
import { CALL_TIERS } from './parity';
import { corpusLabel, ensureCorpus, ensurePinnedFile, PARITY_CORPORA, type ParityCorpus, type PinnedFile } from './parity-corpora';
import { bodyExtents, goldFromScip, graphCallEdges, graphNodeKeys, scoreEdges, type EdgeReport, type Score } from './edges';
import { readScip, readSemanticdb, type ScipIndex } from './scip';

/**
 * The compiler-backed indexers the gold is made with: scip-typescript and scip-python are npm
 * packages (devDependencies of gortex); scip-go is built from the Go module proxy on first use;
 * Java's is javac itself with the `semanticdb-javac` plugin (a jar from Maven Central), whose
 * SemanticDB output the gold reads directly (scip-java would only convert it).
 */
export type ScipIndexer = 'scip-typescript' | 'scip-python' | 'scip-go' | 'semanticdb-javac';

/** The javac plugin that records what the compiler resolved (SemanticDB), pinned. */
const SEMANTICDB_JAVAC: PinnedFile = {
  url: 'https://repo1.maven.org/maven2/com/sourcegraph/semanticdb-javac/0.11.1/semanticdb-javac-0.11.1.jar',
  sha256: '8c256b1b0e8ad499bb5449799e949f4b560aec10d1781e8e4575df078d3aaf96',
  registry: 'Maven Central',
  label: 'semanticdb-javac@0.11.1',
};

/** scip-go's pin (the newest the Go module proxy serves here). */
export const SCIP_GO_VERSION = 'v0.1.26';
const SCIP_GO_MODULE = 'github.com/sourcegraph/scip-go';

/** One pinned corpus of the call-edge eval. */
export interface EdgeCorpus extends ParityCorpus {
  /** Short name used by `--corpus` and in the baseline. */
  id: string;
  indexer: ScipIndexer;
  /**
   * pyright settings for scip-python, written as a pyrightconfig.json at the corpus root while it
   * runs: `extraPaths` so a src-layout package resolves to its own sources rather than a copy
   * installed on the machine, `exclude` for files the indexer crashes on.
   */
  pyright?: { extraPaths?: string[]; exclude?: string[] };
  /** For javac: the jars the sources compile against (pinned, from Maven Central) and files left out. */
  javac?: { classpath?: PinnedFile[]; exclude?: string[] };
}

const GIN = PARITY_CORPORA.find((c) => c.name === 'github.com/gin-gonic/gin')!;
const GSON = PARITY_CORPORA.find((c) => c.name === 'com.google.code.gson:gson')!;

const RXJS: EdgeCorpus = {
  id: 'rxjs',
  language: 'typescript',
  name: 'rxjs',
  version: '7.8.2',
  registry: 'npm',
  url: 'https://registry.npmjs.org/rxjs/-/rxjs-7.8.2.tgz',
  sha256: '2312f8ffd9726ffd7bd53ea12c5f13663d09a3dc3326f448c70b88f5ef6fac82',
  format: 'tgz',
  inner: 'package',
  subdir: 'src',
  note: 'the TypeScript sources rxjs ships under src/ (251 files)',
  indexer: 'scip-typescript',
};

/** The corpora, small first; the large ones (TypeScript's compiler, Django) take minutes each. */
export const EDGE_CORPORA: readonly EdgeCorpus[] = [
  RXJS,
  {
    id: 'typescript-src',
    language: 'typescript',
    name: 'node-typescript',
    version: '4.8.4+ds1',
    registry: 'Debian',
    url: 'http://deb.debian.org/debian/pool/main/n/node-typescript/node-typescript_4.8.4+ds1.orig.tar.xz',
    sha256: 'f7917171a6132ab74404e9928d25ec3d07c9398fc0e9b5df1000c5c28b26653f',
    format: 'txz',
    inner: 'TypeScript-4.8.4',
    subdir: 'src',
    note: "the compiler's own src/ (537 files, 17.5 MB, checker.ts 2.8 MB): namespaces merged across files, the hard case",
    indexer: 'scip-typescript',
  },
  {
    // The parity eval's Python pin, shared so both measure the same bytes.
    ...PARITY_CORPORA.find((c) => c.name === 'requests')!,
    id: 'requests',
    indexer: 'scip-python',
    pyright: { extraPaths: ['src'] },
  },
  {
    id: 'django',
    language: 'python',
    name: 'Django',
    version: '5.1.4',
    registry: 'PyPI',
    url: 'https://files.pythonhosted.org/packages/d3/e8/536555596dbb79f6e77418aeb40bdc1758c26725aba31919ba449e6d5e6a/Django-5.1.4.tar.gz',
    sha256: 'de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a',
    format: 'tgz',
    inner: 'Django-5.1.4',
    subdir: '',
    note: 'the sdist: django/ and tests/ (2,788 Python files)',
    indexer: 'scip-python',
    // scip-python 0.6.6 stops with "Debug Failure. False expression." type-checking this file.
    pyright: { exclude: ['tests/model_enums/tests.py'] },
  },
  // The parity eval's Go pin, shared so both measure the same bytes.
  { ...GIN, id: 'gin', indexer: 'scip-go' },
  {
    id: 'x-tools',
    language: 'go',
    name: 'golang.org/x/tools',
    version: 'v0.28.0',
    registry: 'Go proxy',
    url: 'https://proxy.golang.org/golang.org/x/tools/@v/v0.28.0.zip',
    sha256: '3ac1c5530724296b8ed1f5b3df6c2aa1f6312371ab20812ad5fcb35ceaf2a177',
    format: 'zip',
    inner: 'golang.org/x/tools@v0.28.0',
    subdir: '',
    note: "the module zip (1,180 .go files, testdata included; the index bench's x-tools): go/ssa, go/analysis, internal/…",
    indexer: 'scip-go',
  },
  // The parity eval's Java pin (the sources jar), shared so both measure the same bytes.
  {
    ...GSON,
    id: 'gson',
    indexer: 'semanticdb-javac',
    javac: {
      classpath: [
        {
          url: 'https://repo1.maven.org/maven2/com/google/errorprone/error_prone_annotations/2.27.0/error_prone_annotations-2.27.0.jar',
          sha256: '24c923372c58e35d0b9f16a028929bb9aedc77521867c274f2bd0735df5ba1f5',
          registry: 'Maven Central',
          label: 'error_prone_annotations@2.27.0',
        },
      ],
      // The module descriptor needs a module path; the classes compile the same without it.
      exclude: ['module-info.java'],
    },
  },
  {
    id: 'commons-math',
    language: 'java',
    name: 'org.apache.commons:commons-math3',
    version: '3.6.1',
    registry: 'Maven Central',
    url: 'https://repo1.maven.org/maven2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1-sources.jar',
    sha256: 'e2ff85a3c360d56c51a7021614a194f3fbaf224054642ac535016f118322934d',
    format: 'zip',
    inner: '',
    subdir: '',
    note: 'the sources jar (990 files, no dependencies): deep class hierarchies, overloads, generics',
    indexer: 'semanticdb-javac',
  },
];

/** The corpus ids, in list order. */
export const EDGE_CORPUS_IDS: readonly string[] = EDGE_CORPORA.map((c) => c.id);

/** The default cache folder: the parity eval's, so the corpora both use are fetched once. */
export function defaultEdgesCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'gortex', 'parity');
}

/** The installed indexer's entry script and version; throws how to install it when it is missing. */
export function locateIndexer(indexer: 'scip-typescript' | 'scip-python'): { bin: string; version: string } {
  let manifest: string;
  try {
    manifest = require.resolve(`@sourcegraph/${indexer}/package.json`);
  } catch {
    throw new Error(
      `${indexer} is not installed: it makes the gold of \`gortex eval edges\`. Fix: run \`npm install\` in a gortex ` +
        `checkout (it is a devDependency), or \`npm install --no-save @sourcegraph/${indexer}\`.`,
    );
  }
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string; bin: string | Record<string, string> };
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[indexer]!;
  return { bin: path.join(path.dirname(manifest), rel), version: pkg.version };
}

/** Refuses, naming the fix, when `indexer` cannot run here: its npm package or, for scip-go, the Go toolchain it is built with. */
export function checkIndexer(indexer: ScipIndexer): void {
  if (indexer === 'semanticdb-javac') {
    const javac = spawnSync('javac', ['-version'], { encoding: 'utf8', env: process.env });
    if (javac.status !== 0) {
      throw new Error(`Java's gold of \`gortex eval edges\` is made by javac with the semanticdb-javac plugin, and javac is not on PATH (${javac.error?.message ?? javac.stderr.trim()}). Fix: install a JDK (apt-get install default-jdk-headless), or leave the Java corpora out with --corpus.`);
    }
    return;
  }
  if (indexer !== 'scip-go') {
    locateIndexer(indexer);
    return;
  }
  const go = spawnSync('go', ['version'], { encoding: 'utf8', env: process.env });
  if (go.status !== 0) {
    throw new Error(`scip-go makes the Go gold of \`gortex eval edges\` and is built with the Go toolchain, which is not on PATH (${go.error?.message ?? go.stderr.trim()}). Fix: install Go, or leave the Go corpora out with --corpus.`);
  }
}

/**
 * The scip-go binary, built once per pin under `toolsDir` from the Go module proxy (a scratch
 * module, `go get` of the pin, `go build`: `go install …@version` is refused where the proxy
 * serves the version but not the module's version list).
 */
export async function ensureScipGo(toolsDir: string, log: (msg: string) => void): Promise<{ bin: string; version: string }> {
  const dir = path.join(toolsDir, `scip-go-${SCIP_GO_VERSION}`);
  const bin = path.join(dir, 'scip-go');
  if (fs.existsSync(bin)) return { bin, version: SCIP_GO_VERSION };
  checkIndexer('scip-go');
  log(`building scip-go ${SCIP_GO_VERSION} from the Go module proxy`);
  fs.mkdirSync(dir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-scip-go-'));
  try {
    fs.writeFileSync(path.join(scratch, 'go.mod'), 'module gortex.local/scip-go-build\n\ngo 1.22\n');
    const env = { ...process.env, GOFLAGS: '-mod=mod' };
    await run('go get', 'go', ['get', `${SCIP_GO_MODULE}/cmd/scip-go@${SCIP_GO_VERSION}`], scratch, log, env);
    const tmp = `${bin}.tmp-${process.pid}`;
    await run('go build', 'go', ['build', '-o', tmp, `${SCIP_GO_MODULE}/cmd/scip-go`], scratch, log, env);
    fs.renameSync(tmp, bin);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { bin, version: SCIP_GO_VERSION };
}

/** Runs a command to completion, keeping the tail of its output for the error message. */
function run(label: string, command: string, args: readonly string[], cwd: string, log: (msg: string) => void, env?: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else {
        log(tail);
        reject(new Error(`${label} exited with ${code} in ${cwd}: ${tail.trim().split('\n').slice(-3).join(' | ')}`));
      }
    });
  });
}

/**
 * The SCIP index of `root` made by `indexer`, cached under `cacheDir/scip/` by corpus pin and
 * indexer version. TypeScript gets one generated project over every source file (a repository's
 * own tsconfigs often reference built outputs that are not there, which would lose cross-project
 * calls); files up to 10 MB are indexed (the compiler's checker.ts is 2.8 MB). Go modules are
 * indexed by scip-go at their root, dependencies from the module proxy.
 */
export async function scipIndexOf(
  corpus: Pick<EdgeCorpus, 'id' | 'name' | 'version' | 'indexer' | 'pyright' | 'javac'>,
  repoRoot: string,
  cacheDir: string,
  log: (msg: string) => void,
): Promise<string> {
  const root = path.resolve(repoRoot);
  const tools = path.join(defaultEdgesCacheDir(), 'tools');
  const dir = path.join(cacheDir, 'scip');
  fs.mkdirSync(dir, { recursive: true });
  if (corpus.indexer === 'semanticdb-javac') return javacSemanticdb(corpus, root, tools, dir, log);
  const { bin, version } = corpus.indexer === 'scip-go' ? await ensureScipGo(tools, log) : locateIndexer(corpus.indexer);
  const out = path.join(dir, `${corpus.id}-${corpus.version}.${corpus.indexer}-${version}.scip`);
  if (fs.existsSync(out)) return out;
  const tmp = `${out}.tmp-${process.pid}`;
  log(`making the gold of ${corpus.id} with ${corpus.indexer} ${version}`);
  if (corpus.indexer === 'scip-typescript') {
    const project = path.join(dir, `${corpus.id}-tsconfig`);
    fs.mkdirSync(project, { recursive: true });
    const tsconfig = path.join(project, 'tsconfig.json');
    fs.writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: { target: 'es2022', lib: ['es2022', 'dom'], types: [], noEmit: true, skipLibCheck: true, allowJs: true, moduleResolution: 'node', experimentalDecorators: true },
        include: [path.join(root, '**/*.ts'), path.join(root, '**/*.tsx')],
        exclude: [path.join(root, '**/node_modules/**')],
      }),
    );
    await run(corpus.indexer, process.execPath, [bin, 'index', '--cwd', root, '--max-file-byte-size', '10mb', '--output', tmp, tsconfig], root, log);
  } else if (corpus.indexer === 'scip-go') {
    // The module's dependencies come from the Go module proxy; a go.sum short of an entry is completed, not fatal.
    await run(corpus.indexer, bin, ['--output', tmp], root, log, { ...process.env, GOFLAGS: '-mod=mod' });
  } else {
    // pyright reads its settings only from the project root: written there for the run, then removed.
    const config = path.join(root, 'pyrightconfig.json');
    const shipped = fs.existsSync(config);
    if (shipped && corpus.pyright) throw new Error(`${config} exists: the corpus ships its own pyright settings, so the pin's cannot be applied; review the pin`);
    if (corpus.pyright) fs.writeFileSync(config, JSON.stringify(corpus.pyright));
    try {
      await run(corpus.indexer, process.execPath, [bin, 'index', '--project-name', corpus.name, '--project-version', corpus.version, '--output', tmp, '.'], root, log);
    } finally {
      if (!shipped) fs.rmSync(config, { force: true });
    }
  }
  fs.renameSync(tmp, out);
  return out;
}

/** Every `.java` file under `dir`, relative to it, sorted. */
function javaFiles(dir: string, exclude: ReadonlySet<string>, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...javaFiles(dir, exclude, child));
    else if (entry.name.endsWith('.java') && !exclude.has(entry.name) && !exclude.has(child)) out.push(child);
  }
  return out.sort();
}

/**
 * Java's gold: every source file compiled by javac with the semanticdb-javac plugin, which writes
 * what the compiler resolved per file; the files' `TextDocuments` are concatenated into one (a
 * protobuf concatenation merges repeated fields), cached beside the SCIP indexes.
 */
async function javacSemanticdb(
  corpus: Pick<EdgeCorpus, 'id' | 'version' | 'javac'>,
  root: string,
  tools: string,
  dir: string,
  log: (msg: string) => void,
): Promise<string> {
  const version = SEMANTICDB_JAVAC.label.split('@')[1]!;
  const out = path.join(dir, `${corpus.id}-${corpus.version}.semanticdb-javac-${version}.semanticdb`);
  if (fs.existsSync(out)) return out;
  checkIndexer('semanticdb-javac');
  const plugin = await ensurePinnedFile(SEMANTICDB_JAVAC, path.join(tools, path.basename(new URL(SEMANTICDB_JAVAC.url).pathname)), log);
  const classpath = [plugin];
  for (const jar of corpus.javac?.classpath ?? []) classpath.push(await ensurePinnedFile(jar, path.join(tools, 'jars', path.basename(new URL(jar.url).pathname)), log));
  const files = javaFiles(root, new Set(corpus.javac?.exclude ?? []));
  if (files.length === 0) throw new Error(`${root} holds no .java file to compile: the corpus pin is wrong`);
  log(`making the gold of ${corpus.id} with javac and semanticdb-javac ${version} (${files.length} files)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-javac-'));
  try {
    const target = path.join(work, 'semanticdb');
    fs.writeFileSync(path.join(work, 'files.txt'), files.map((f) => JSON.stringify(path.join(root, f))).join('\n'));
    const args = ['-J-Xmx3g', '-proc:none', '-nowarn', '-encoding', 'UTF-8', '-cp', classpath.join(path.delimiter), `-Xplugin:semanticdb -sourceroot:${root} -targetroot:${target}`, '-d', path.join(work, 'classes'), `@${path.join(work, 'files.txt')}`];
    await run('javac', 'javac', args, root, log);
    const documents: Buffer[] = [];
    const collect = (d: string): void => {
      for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const p = path.join(d, entry.name);
        if (entry.isDirectory()) collect(p);
        else if (entry.name.endsWith('.semanticdb')) documents.push(fs.readFileSync(p));
      }
    };
    collect(target);
    const tmp = `${out}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, Buffer.concat(documents));
    fs.renameSync(tmp, out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

/** A gold file as SCIP: an index, or (for Java) concatenated SemanticDB documents. */
export function readGold(file: string): ScipIndex {
  const bytes = fs.readFileSync(file);
  return file.endsWith('.semanticdb') ? { toolName: 'semanticdb-javac', projectRoot: '', documents: readSemanticdb(bytes) } : readScip(bytes);
}

/** The scores of one corpus, before enrichment and (when asked) after. */
export interface EdgeCorpusResult {
  id: string;
  language: string;
  corpus: string;
  files?: number;
  gold_edges?: number;
  before?: EdgeReport;
  after?: EdgeReport;
  /** The enrichment pass: its status and what it cost. */
  enrichment?: { state: string; wall_ms: number; files: number; peak_server_rss_mb: number };
  index_ms?: number;
  error?: string;
}

/** Options of `runEdges`. */
export interface EdgesRunOptions {
  corpora: readonly EdgeCorpus[];
  cacheDir: string;
  /** Also score after a semantic-enrichment pass by the language servers. */
  enrich?: boolean;
  log?: (message: string) => void;
}

/** The graph's edges scored against a gold made on the same root. */
export function scoreGraph(engine: Engine, root: string, scipFile: string): EdgeReport & { gold_edges: number } {
  const stats = engine.stats(root);
  const dump = engine.graphDump(root, { maxNodes: stats.nodes + 1 });
  const index = readGold(scipFile);
  const gold = goldFromScip(index, {
    sourceOf: (rel) => {
      try {
        return fs.readFileSync(path.join(root, rel), 'utf8');
      } catch {
        return null;
      }
    },
    extentOf: bodyExtents(dump),
  });
  return { ...scoreEdges(gold, graphCallEdges(dump), graphNodeKeys(dump)), gold_edges: gold.edges.size };
}

/** Fetches, makes the gold, indexes and scores each corpus in turn; a corpus that fails is reported, not thrown. */
export async function runEdges(options: EdgesRunOptions): Promise<EdgeCorpusResult[]> {
  const log = options.log ?? ((): void => {});
  const { Engine } = await import('../engine/engine');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-edges-'));
  const results: EdgeCorpusResult[] = [];
  try {
    const engine = new Engine({ home });
    for (const corpus of options.corpora) {
      const base = { id: corpus.id, language: corpus.language, corpus: corpusLabel(corpus) };
      try {
        const root = await ensureCorpus(corpus, options.cacheDir, log);
        const scip = await scipIndexOf(corpus, root, options.cacheDir, log);
        log(`indexing ${base.corpus} (${root})`);
        const started = Date.now();
        await engine.indexRepo(root, { name: `edges-${corpus.id}`, force: true });
        const index_ms = Date.now() - started;
        const before = scoreGraph(engine, root, scip);
        const result: EdgeCorpusResult = { ...base, files: engine.stats(root).files, gold_edges: before.gold_edges, before, index_ms };
        if (options.enrich) {
          log(`enriching ${base.corpus} with its language server`);
          const enrichment = await enrichOnce(engine, root);
          result.enrichment = enrichment;
          result.after = scoreGraph(engine, root, scip);
        }
        results.push(result);
      } catch (error) {
        results.push({ ...base, error: (error as Error).message });
      }
    }
  } finally {
    const { lspPool } = await import('../lsp/pool');
    await lspPool().shutdown();
    fs.rmSync(home, { recursive: true, force: true });
  }
  return results;
}

/** One full enrichment pass over `root`, with its wall time and the servers' peak memory. */
async function enrichOnce(engine: Engine, root: string): Promise<NonNullable<EdgeCorpusResult['enrichment']>> {
  const { enrichment } = await import('../lsp/enrich');
  const { lspPool } = await import('../lsp/pool');
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, lspPool().status(root).reduce((sum, s) => sum + (s.rss_mb ?? 0), 0));
  }, 500);
  const started = Date.now();
  try {
    await enrichment().schedule(root, engine, root);
  } finally {
    clearInterval(sampler);
  }
  const status = enrichment().status(root);
  const main = [...status].sort((a, b) => b.files_total - a.files_total)[0];
  return { state: main?.state ?? 'none', wall_ms: Date.now() - started, files: main?.files_done ?? 0, peak_server_rss_mb: peak };
}

const num = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined ? '-' : x.toFixed(digits));
const pr = (s: Score | undefined): string => (s ? `${num(s.precision)} / ${num(s.recall)}` : '-');

/** The tier everything at or above which is the "trusted" slice the goal speaks of. */
export const TRUSTED_TIER = 'ast_inferred';

/** The best tier at or above `tier` that the report has, for the trusted slice. */
function trusted(report: EdgeReport): Score | undefined {
  const order = CALL_TIERS.slice(0, CALL_TIERS.indexOf(TRUSTED_TIER) + 1);
  for (let i = order.length - 1; i >= 0; i--) {
    const s = report.at_or_above[order[i]!];
    if (s) return s;
  }
  return undefined;
}

/** The report: one row per corpus (and per enrichment state), then per-kind and per-tier detail. */
export function formatEdges(results: readonly EdgeCorpusResult[], verdicts: readonly EdgeVerdict[] = []): string {
  const header = ['corpus', 'language', 'pass', 'gold', 'judged', 'P / R all', 'F1', `P / R ≥${TRUSTED_TIER}`, 'text_matched P', 'function P / R', 'method P / R', 'ctor P / R', 'same-file P / R', 'cross-file P / R'];
  const rows: string[][] = [];
  for (const r of results) {
    if (!r.before) {
      rows.push([r.corpus, r.language, 'error', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-']);
      continue;
    }
    for (const [label, report] of [['graph', r.before], ['enriched', r.after]] as const) {
      if (!report) continue;
      rows.push([
        r.corpus,
        r.language,
        label,
        String(report.all.gold),
        String(report.all.judged),
        pr(report.all),
        num(report.all.f1),
        pr(trusted(report)),
        num(report.by_tier.text_matched?.precision),
        pr(report.by_kind.function),
        pr(report.by_kind.method),
        pr(report.by_kind.constructor),
        pr(report.same_file),
        pr(report.cross_file),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const out = [line(header), ...rows.map(line)];
  for (const r of results) {
    if (r.error) out.push('', `FAIL ${r.id}: ${r.error}`);
    if (!r.before) continue;
    out.push('', `${r.id}: ${r.files} files, gold ${r.gold_edges} call edges (${r.before.gold_outside_bodies} call sites outside function bodies and ${r.before.gold_misattributed} the indexer misattributed left out)`);
    for (const [label, report] of [['graph', r.before], ['enriched', r.after]] as const) {
      if (!report) continue;
      const tiers = CALL_TIERS.filter((t) => report.by_tier[t]).map((t) => {
        const s = report.by_tier[t]!;
        return `${t} ${s.edges} edges, P ${num(s.precision)}`;
      });
      out.push(`  ${label}: ${tiers.join(' · ')}; unjudged (caller/callee not a SCIP definition, site misattributed) ${report.unjudged.caller_unknown}/${report.unjudged.callee_unknown}/${report.unjudged.misattributed}; missed: no edge ${report.misses.no_edge}, node missing ${report.misses.caller_node_missing + report.misses.callee_node_missing}`);
    }
    if (r.enrichment) out.push(`  enrichment: ${r.enrichment.state}, ${r.enrichment.files} files in ${(r.enrichment.wall_ms / 1000).toFixed(1)} s, servers peak ${r.enrichment.peak_server_rss_mb} MB`);
  }
  const failed = verdicts.filter((v) => v.status !== 'ok' && v.status !== 'new');
  for (const v of verdicts) if (v.status !== 'ok') out.push(`${v.status === 'new' ? 'note' : 'FAIL'} ${v.id}: ${v.reason}`);
  if (verdicts.length > 0) out.push('', failed.length === 0 ? 'edges: ok' : `edges: ${failed.length} corpus(es) below baseline`);
  return out.join('\n');
}

/** The frozen figures of one corpus: all-tier and trusted-slice precision and recall. */
export interface EdgeBaselineEntry {
  corpus: string;
  precision: number;
  recall: number;
  trusted_precision: number;
  trusted_recall: number;
}

/** `eval/edges-baseline.json`. */
export interface EdgeBaseline {
  epsilon: number;
  corpora: Record<string, EdgeBaselineEntry>;
}

/** One corpus against its baseline. */
export interface EdgeVerdict {
  id: string;
  status: 'ok' | 'below' | 'unmeasured' | 'new';
  reason?: string;
}

/** The figures a baseline keeps, from a result. */
export function baselineEntry(r: EdgeCorpusResult): EdgeBaselineEntry | null {
  const report = r.before;
  const t = report ? trusted(report) : undefined;
  if (!report || report.all.precision === null || report.all.recall === null) return null;
  return {
    corpus: r.corpus,
    precision: round(report.all.precision),
    recall: round(report.all.recall),
    trusted_precision: round(t?.precision ?? 0),
    trusted_recall: round(t?.recall ?? 0),
  };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;

/** Checks each measured corpus (before enrichment: the gate is on what indexing alone gives) against the baseline. */
export function compareEdges(results: readonly EdgeCorpusResult[], baseline: EdgeBaseline, epsilon: number): EdgeVerdict[] {
  return results.map((r): EdgeVerdict => {
    const frozen = baseline.corpora[r.id];
    const now = baselineEntry(r);
    if (!now) return { id: r.id, status: frozen ? 'unmeasured' : 'new', reason: r.error ?? 'nothing measured' };
    if (!frozen) return { id: r.id, status: 'new', reason: 'not in the baseline yet (--update adds it)' };
    const drops: string[] = [];
    for (const field of ['precision', 'recall', 'trusted_precision', 'trusted_recall'] as const) {
      if (now[field] < frozen[field] - epsilon) drops.push(`${field} ${now[field].toFixed(4)} is below ${frozen[field].toFixed(4)} − ${epsilon}`);
    }
    return drops.length === 0 ? { id: r.id, status: 'ok' } : { id: r.id, status: 'below', reason: drops.join('; ') };
  });
}

/** Reads and checks a baseline file; null when it does not exist. */
export function readEdgeBaseline(file: string): EdgeBaseline | null {
  if (!fs.existsSync(file)) return null;
  let parsed: EdgeBaseline;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as EdgeBaseline;
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}): fix it or regenerate it with --update`);
  }
  const ok =
    parsed !== null &&
    typeof parsed === 'object' &&
    typeof parsed.epsilon === 'number' &&
    typeof parsed.corpora === 'object' &&
    parsed.corpora !== null &&
    Object.values(parsed.corpora).every((e) => ['precision', 'recall', 'trusted_precision', 'trusted_recall'].every((k) => typeof (e as unknown as Record<string, unknown>)[k] === 'number'));
  if (!ok) throw new Error(`${file} is not an edges baseline ({epsilon, corpora: {id: {precision, recall, trusted_precision, trusted_recall}}}): regenerate it with --update`);
  return parsed;
}

/** The baseline after this run: measured corpora replaced, the rest kept. */
export function updatedEdgeBaseline(previous: EdgeBaseline | null, results: readonly EdgeCorpusResult[], epsilon: number): EdgeBaseline {
  const corpora = { ...(previous?.corpora ?? {}) };
  for (const r of results) {
    const entry = baselineEntry(r);
    if (entry) corpora[r.id] = entry;
  }
  return { epsilon: previous?.epsilon ?? epsilon, corpora };
}

/** The sampled misses and wrong edges of each corpus, one per line, for classifying what to fix next. */
export function formatSamples(results: readonly EdgeCorpusResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    for (const [label, report] of [['graph', r.before], ['enriched', r.after]] as const) {
      if (!report) continue;
      out.push('', `${r.id} (${label}) missed:`);
      for (const m of report.sample.missed) out.push(`  ${m.kind.padEnd(11)} ${m.caller} -> ${m.callee}  [${m.why}]`);
      out.push(`${r.id} (${label}) wrong:`);
      for (const w of report.sample.wrong) out.push(`  ${(w.origin ?? '').padEnd(12)} ${w.caller} -> ${w.callee}  [${w.why}]`);
    }
  }
  return out.join('\n');
}
