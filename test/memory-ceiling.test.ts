/**
 * The daemon's memory ceiling with a real daemon process: rebuildable caches dropped first (and
 * answers unchanged after), a repository that would not fit refused with a clear error and
 * admitted once the ceiling is raised, an opening pass stopped when the ceiling is passed while it
 * runs — the daemon serving on throughout. The ceiling is the global config's `daemon.max_memory`,
 * re-read on each check, set from the daemon's own resident memory as `daemon status` reports it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, runCliAsync, unwrapCliError } from './helpers/cli';
import { daemonWorld, gitFixture } from './helpers/daemon';
import { gitRepo } from './helpers/repo';

function statusOf(env: Record<string, string>): any {
  const r = runCli(['daemon', 'status', '--json'], { env });
  if (r.status !== 0) throw new Error(`daemon status failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function eventually<T>(probe: () => T | undefined, what: string, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** A repository of `files` generated Go files of about 20 KB each. */
function bigRepo(name: string, files: number): string {
  const body = Array.from({ length: 200 }, (_, i) => `func Handler${i}(w int) int {\n\treturn w + ${i} // padding padding padding padding\n}\n`).join('\n');
  const contents: Record<string, string> = {};
  for (let f = 0; f < files; f++) contents[`pkg${f % 10}/file${f}.go`] = `package pkg${f % 10}\n\n${body.replace(/Handler/g, `H${f}_`)}`;
  return gitRepo(name, contents);
}

describe('the daemon memory ceiling', () => {
  const w = daemonWorld();
  const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'gx-cfg-'));
  const env = { ...w.env, XDG_CONFIG_HOME: configHome, GORTEX_TEST_HOOKS: '1' };
  const setCeiling = (value: string | undefined): void => {
    fs.mkdirSync(path.join(configHome, 'gortex'), { recursive: true });
    fs.writeFileSync(path.join(configHome, 'gortex', 'config.yaml'), value === undefined ? '' : `daemon:\n  max_memory: ${value}\n`);
  };
  const small = gitFixture('query/app-ts', 'ceiling-small');
  const startDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gx-nogit-'));

  beforeAll(() => {
    setCeiling(undefined);
    const started = runCli(['daemon', 'start', '--detach'], { env, cwd: startDir });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
  });

  afterAll(() => {
    runCli(['daemon', 'stop'], { env });
  });

  it('drops rebuildable caches first, and answers the same after', async () => {
    expect(runCli(['track', small], { env }).status).toBe(0);
    await eventually(() => (statusOf(env).repos.every((r: any) => r.phase === 'ready') ? true : undefined), 'small repository ready');
    const search = (): string => {
      const r = runCli(['call', 'search_symbols', '--json-args', '{"query":"handler","format":"json"}'], { env, cwd: small });
      if (r.status !== 0) throw new Error(`search failed: ${r.stderr}`);
      return r.stdout;
    };
    const before = search();
    expect(statusOf(env).memory.ceiling).toMatchObject({ max_bytes: null, cache_releases: 0 });

    // A ceiling the daemon is already above 85% of: the next check drops the caches.
    const rss = statusOf(env).memory.rss_bytes as number;
    setCeiling(String(Math.round(rss * 1.05)));
    const ceiling = await eventually(() => {
      const c = statusOf(env).memory.ceiling;
      return c.cache_releases > 0 ? c : undefined;
    }, 'caches dropped under the ceiling');
    expect(ceiling.max_source).toBe('daemon.max_memory');
    expect(ceiling.max_bytes).toBe(Math.round(rss * 1.05));
    // The symbol index the search built was among what was dropped (sized bytes).
    expect(ceiling.released_bytes).toBeGreaterThan(0);
    expect(ceiling.last_action).toMatch(/rebuildable caches dropped/);
    // Still serving, with the same answer (the index is built again on demand).
    expect(search()).toBe(before);
  });

  it('refuses a repository that would not fit, naming the sizes and the fix, and admits it once raised', async () => {
    const big = bigRepo('ceiling-big', 400);
    // A ceiling just above what the daemon holds now: 400 files of 20 KB do not fit beside it.
    setCeiling(String(Math.round((statusOf(env).memory.rss_bytes as number) * 1.05)));
    const refused = runCli(['track', big], { env });
    expect(refused.status).toBe(2);
    expect(unwrapCliError(refused.stderr)).toMatch(/not tracking ceiling-big .*indexing its 400 files .* needs about .*memory ceiling \(daemon\.max_memory\).*Raise daemon\.max_memory in the global config/s);
    const status = statusOf(env);
    expect(status.repos.map((r: any) => r.root)).not.toContain(fs.realpathSync(big));
    expect(status.memory.ceiling.refused).toBeGreaterThanOrEqual(1);

    setCeiling('8G');
    expect(runCli(['track', big], { env }).status).toBe(0);
    await eventually(() => (statusOf(env).repos.every((r: any) => r.phase === 'ready') ? true : undefined), 'big repository ready');
  });

  it('stops an opening pass that carries the daemon past the ceiling, and keeps serving the others', async () => {
    // The next open is held (test hook) so the ceiling can drop below the daemon while it runs.
    const late = gitRepo('ceiling-late', { 'main.go': 'package main\n\nfunc main() {}\n' });
    const stopped = runCli(['daemon', 'stop'], { env });
    expect(stopped.status).toBe(0);
    const restarted = runCli(['daemon', 'start', '--detach'], { env: { ...env, GORTEX_TEST_SLOW_OPEN: '8000' }, cwd: startDir });
    if (restarted.status !== 0) throw new Error(`daemon restart failed: ${restarted.stderr}`);
    await eventually(() => (statusOf(env).repos.every((r: any) => r.phase === 'ready') ? true : undefined), 'restored repositories ready');
    // `gortex track` waits for the repository: run it aside, and drop the ceiling while it is held.
    const tracking = runCliAsync(['track', late], { env });
    await eventually(() => statusOf(env).repos.find((r: any) => r.root === fs.realpathSync(late) && r.phase !== 'ready'), 'the late repository warming');
    setCeiling('64M');
    await tracking;
    const failed = await eventually(() => statusOf(env).repos.find((r: any) => r.root === fs.realpathSync(late) && r.phase === 'failed'), 'the held pass stopped');
    expect(failed.error).toMatch(/stopped indexing ceiling-late: the daemon reached its memory ceiling .*raise the ceiling/);
    const status = statusOf(env);
    expect(status.memory.ceiling.cancelled).toBe(1);
    // Tracking it again (with room) opens it again.
    setCeiling('8G');
    expect(runCli(['track', late], { env: { ...env } }).status).toBe(0);
    await eventually(() => statusOf(env).repos.find((r: any) => r.root === fs.realpathSync(late) && r.phase === 'ready'), 'the late repository open after all');
    // The repositories already open still answer.
    setCeiling(undefined);
    const r = runCli(['call', 'search_symbols', '--json-args', '{"query":"handler","format":"json"}'], { env, cwd: small });
    expect(r.status).toBe(0);
  });
});
