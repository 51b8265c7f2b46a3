/**
 * Packs gortex the way it is published (napi-rs's layout): the `gortex` package — JavaScript, assets,
 * no binary, no install scripts — whose `optionalDependencies` name one `gortex-<platform>` package
 * per napi target (`npm/<platform>/package.json`, with `os`/`cpu`/`libc`), each holding that
 * target's `.node`. npm installs only the one matching the machine; the generated loader
 * (`native/index.js`) requires it.
 *
 *   node dist/scripts/pack.js [--out DIR] [--artifacts DIR] [--require-all] [--json]
 *
 * `--artifacts` is where the built `.node` files are (default `native/`; CI's matrix downloads them
 * elsewhere, searched recursively). A platform whose binary is absent is listed as skipped, not
 * packed; `--require-all` (publishing) makes that an error.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** One packed tarball, as `npm pack --json` reports it. */
export interface PackedTarball {
  name: string;
  version: string;
  /** Absolute path of the `.tgz`. */
  file: string;
  /** Compressed and unpacked sizes in bytes. */
  bytes: number;
  unpackedBytes: number;
  /** Paths inside the package (relative, `/`-separated). */
  entries: string[];
}

/** What `packAll` made. */
export interface PackResult {
  main: PackedTarball;
  platforms: PackedTarball[];
  /** Platform packages without a built binary in the artifacts directory. */
  skipped: { name: string; binary: string }[];
}

/** A per-platform package as `npm/<dir>/package.json` declares it. */
export interface PlatformPackage {
  dir: string;
  name: string;
  /** The `.node` file it ships (its `main`). */
  binary: string;
}

interface Manifest {
  name: string;
  version: string;
  files: string[];
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  allowScripts?: unknown;
  napi?: unknown;
  [key: string]: unknown;
}

/** The repository root (where package.json and npm/ are), from `dist/scripts` or `scripts`. */
export function sourceRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'npm')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`pack: no package.json beside an npm/ folder above ${__dirname}`);
  }
}

/** The per-platform packages of `root/npm`, sorted by name. */
export function platformPackages(root: string): PlatformPackage[] {
  const npmDir = path.join(root, 'npm');
  return fs
    .readdirSync(npmDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(npmDir, entry.name, 'package.json'), 'utf8')) as { name: string; main: string };
      return { dir: path.join(npmDir, entry.name), name: manifest.name, binary: manifest.main };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Newest modification time under `dir` of files whose name passes `keep`. */
function newestMtime(dir: string, keep: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && keep(entry.name)) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Refuses to pack a build that is missing or older than its sources (it would publish stale code). */
function checkBuilt(root: string): void {
  const dist = path.join(root, 'dist', 'ts');
  if (!fs.existsSync(path.join(dist, 'cli', 'commands'))) throw new Error(`pack: ${dist} is missing — run \`npm run build:ts\` first`);
  if (newestMtime(path.join(root, 'ts'), (n) => n.endsWith('.ts')) > newestMtime(dist, (n) => n.endsWith('.js'))) {
    throw new Error(`pack: ${dist} is older than ts/ — run \`npm run build:ts\` first`);
  }
}

/** The `.node` files under `dir` (recursively: CI downloads one folder per target), by file name. */
function builtBinaries(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!fs.existsSync(dir)) throw new Error(`pack: the artifacts directory ${dir} does not exist`);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.node') && !found.has(entry.name)) found.set(entry.name, path.join(entry.parentPath, entry.name));
  }
  return found;
}

/** Runs `npm pack` in `dir` (no scripts) into `outDir` and returns what it packed. */
function npmPack(dir: string, outDir: string): PackedTarball {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [report] = JSON.parse(out) as { name: string; version: string; filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  if (!report) throw new Error(`pack: npm pack in ${dir} reported nothing`);
  return {
    name: report.name,
    version: report.version,
    file: path.join(outDir, report.filename),
    bytes: report.size,
    unpackedBytes: report.unpackedSize,
    entries: report.files.map((f) => f.path).sort(),
  };
}

/** The published manifest: no scripts or dev tooling, the binary moved to the platform packages. */
export function publishedManifest(manifest: Manifest, platforms: PlatformPackage[]): Manifest {
  const published: Manifest = { ...manifest, files: manifest.files.filter((entry) => !entry.endsWith('.node')) };
  // No install or build step runs on the user's machine; benches and evals need a source checkout.
  delete published.scripts;
  delete published.devDependencies;
  delete published.allowScripts;
  delete published.napi;
  published.optionalDependencies = Object.fromEntries(platforms.map((p) => [p.name, manifest.version]));
  return published;
}

/** Copies `from` into `to`, leaving out source maps (they point at ts/ sources that are not shipped). */
function copyPublished(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (source) => !source.endsWith('.map') });
}

/** Packs the main package and every platform package with a built binary into `outDir`. */
export function packAll(options: { outDir: string; artifactsDir?: string; root?: string }): PackResult {
  const root = options.root ?? sourceRoot();
  const artifactsDir = path.resolve(options.artifactsDir ?? path.join(root, 'native'));
  checkBuilt(root);
  fs.mkdirSync(options.outDir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  const platforms = platformPackages(root);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-pack-'));
  try {
    const packedPlatforms: PackedTarball[] = [];
    const skipped: PackResult['skipped'] = [];
    const built = builtBinaries(artifactsDir);
    for (const platform of platforms) {
      const binary = built.get(platform.binary);
      if (binary === undefined) {
        skipped.push({ name: platform.name, binary: platform.binary });
        continue;
      }
      const stage = path.join(staging, platform.name);
      fs.cpSync(platform.dir, stage, { recursive: true });
      fs.copyFileSync(binary, path.join(stage, platform.binary));
      const platformManifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8')) as Manifest;
      platformManifest.version = manifest.version;
      fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(platformManifest, null, 2)}\n`);
      packedPlatforms.push(npmPack(stage, options.outDir));
    }
    const stage = path.join(staging, 'gortex');
    fs.mkdirSync(stage);
    const published = publishedManifest(manifest, platforms);
    for (const entry of published.files) {
      if (entry.includes('*')) throw new Error(`pack: package.json "files" entry ${entry} is a glob; list a file or folder`);
      const source = path.join(root, entry);
      if (!fs.existsSync(source)) throw new Error(`pack: package.json "files" names ${entry}, which does not exist — run \`npm run build\` first`);
      copyPublished(source, path.join(stage, entry));
    }
    for (const extra of ['README.md', 'LICENSE']) fs.copyFileSync(path.join(root, extra), path.join(stage, extra));
    fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
    return { main: npmPack(stage, options.outDir), platforms: packedPlatforms, skipped };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The report `npm run pack` prints. */
export function packReport(result: PackResult): string {
  const rows = [result.main, ...result.platforms].map(
    (t) => `| ${t.name}@${t.version} | ${path.basename(t.file)} | ${megabytes(t.bytes)} | ${megabytes(t.unpackedBytes)} | ${t.entries.length} |`,
  );
  const lines = ['| package | tarball | size | unpacked | files |', '|---|---|---|---|---|', ...rows];
  if (result.skipped.length > 0) lines.push('', `not packed (no binary built here): ${result.skipped.map((s) => `${s.name} (${s.binary})`).join(', ')}`);
  return lines.join('\n');
}

function main(argv: string[]): void {
  const value = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    if (at === -1) return undefined;
    const given = argv[at + 1];
    if (given === undefined || given.startsWith('--')) throw new Error(`pack: ${flag} needs a directory`);
    return given;
  };
  const known = new Set(['--out', '--artifacts', '--require-all', '--json']);
  for (const arg of argv) if (arg.startsWith('--') && !known.has(arg)) throw new Error(`pack: unknown option ${arg} (known: ${[...known].join(', ')})`);
  const root = sourceRoot();
  const outDir = path.resolve(value('--out') ?? path.join(root, 'dist', 'pack'));
  const artifactsDir = value('--artifacts');
  const result = packAll({ outDir, root, ...(artifactsDir ? { artifactsDir } : {}) });
  if (argv.includes('--require-all') && result.skipped.length > 0) {
    throw new Error(`pack: --require-all, but no binary was found for ${result.skipped.map((s) => `${s.name} (${s.binary})`).join(', ')}`);
  }
  process.stdout.write(argv.includes('--json') ? `${JSON.stringify(result, null, 2)}\n` : `${packReport(result)}\n`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
