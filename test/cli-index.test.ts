/** `gortex index` and `gortex status` end to end: the built CLI on real temp repositories. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('gortex index / status', () => {
  const home = tempHome();
  const env = { GORTEX_HOME: home, GORTEX_THREADS: '2' };

  test('indexes a polyglot repo, then reuses the snapshot', () => {
    const root = fixtureCopy('resolver', 'poly');
    const cold = runCli(['index', root, '--json'], { env });
    expect(cold.stderr).not.toMatch(/Error/);
    expect(cold.status).toBe(0);
    const report = JSON.parse(cold.stdout);
    expect(report.mode).toBe('cold');
    // Every text file is indexed: the golden files, manifests, docs, schemas and components too.
    expect(Object.keys(report.languages).sort()).toEqual([
      'bash', 'c', 'cpp', 'csharp', 'dockerfile', 'elixir', 'go', 'java', 'javascript', 'json', 'kotlin', 'lua', 'markdown', 'php',
      'proto', 'python', 'ruby', 'rust', 'scala', 'sql', 'svelte', 'swift', 'text', 'toml', 'typescript', 'vue',
    ]);
    expect(report.edges.by_kind.depends_on_module).toBeGreaterThan(3);
    expect(report.peak_rss_bytes).toBeGreaterThan(1_000_000);
    expect(report.edges.by_kind.calls).toBeGreaterThan(30);

    const warm = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    expect(warm.mode).toBe('unchanged');
    expect(warm.files.parsed).toBe(0);

    fs.appendFileSync(path.join(root, 'go/helper.go'), '\nfunc Extra() { helper() }\n');
    const incremental = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    expect(incremental.mode).toBe('incremental');
    expect(incremental.files.parsed).toBe(1);
  });

  test('prints a readable summary', () => {
    const root = fixtureCopy('resolver/py', 'pyrepo');
    const result = runCli(['index', root], { env });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/python/);
    expect(result.stdout).toMatch(/calls/);
    expect(result.stdout).toMatch(/ast_resolved/);
  });

  test('status reports freshness and stale files', () => {
    const root = fixtureCopy('resolver/rust', 'rsrepo');
    const before = JSON.parse(runCli(['status', root, '--json'], { env }).stdout);
    expect(before.indexed).toBe(false);
    expect(runCli(['index', root], { env }).status).toBe(0);
    const fresh = JSON.parse(runCli(['status', root, '--json'], { env }).stdout);
    // Three sources, Cargo.toml and golden.txt.
    expect(fresh).toMatchObject({ indexed: true, fresh: true, files: 5 });
    fs.writeFileSync(path.join(root, 'src/store.rs'), 'pub fn changed() {}\n');
    const stale = runCli(['status', root], { env });
    expect(stale.status).toBe(0);
    expect(stale.stdout).toMatch(/src\/store\.rs/);
  });

  test('skipped files are listed with reasons', () => {
    const root = fixtureCopy('resolver/ts', 'withjunk');
    fs.writeFileSync(path.join(root, 'src/blob.ts'), Buffer.from([0, 1, 2, 3, 0, 255]));
    const report = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    expect(report.skipped_by_reason).toEqual({ binary: 1 });
    expect(report.skipped[0]).toMatchObject({ path: 'src/blob.ts', reason: 'binary' });
  });

  test('a corrupt snapshot is rebuilt and the reason printed', () => {
    const root = fixtureCopy('resolver/go', 'corrupt');
    const first = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    const bytes = fs.readFileSync(first.snapshot.path);
    bytes[bytes.length - 5] ^= 0xff;
    fs.writeFileSync(first.snapshot.path, bytes);
    const status = runCli(['status', root], { env });
    expect(status.stdout).toMatch(/checksum/);
    const again = runCli(['index', root], { env });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/cold index \(snapshot .* failed its checksum; rebuilding\)/);
    expect(JSON.parse(runCli(['index', root, '--json'], { env }).stdout).mode).toBe('unchanged');
  });

  test('excluded directories are configurable', () => {
    const root = fixtureCopy('resolver/ts', 'excludes');
    fs.mkdirSync(path.join(root, 'build'), { recursive: true });
    fs.writeFileSync(path.join(root, 'build/out.ts'), 'export const built = 1;\n');
    const paths = (args: string[]): number => JSON.parse(runCli(['index', root, '--json', '--force', ...args], { env }).stdout).files.total;
    // 10 sources and 4 text files (golden.txt, tsconfig.json, two package.json).
    expect(paths([])).toBe(14); // build/ is a built-in exclude
    expect(paths(['--no-default-excludes'])).toBe(15);
    expect(paths(['--exclude-dir', 'ns', '--exclude-dir', 'packages'])).toBe(8);
  });

  test('a missing path is a one-line error with exit code 2', () => {
    const result = runCli(['index', '/no/such/dir/for/gortex'], { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/\/no\/such\/dir\/for\/gortex/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
