/** Runs the built CLI (`bin/run.js` over `dist/`) as a child process. */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The package root (this repo). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

/** Runs `node bin/run.js ...args`; fails loudly if `dist/` was never built. */
export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'run.js'), ...args], cliSpawnOptions(options));
}

/**
 * `runCli` without blocking this process, for tests whose CLI talks to a server the test itself
 * runs (a fake forge): `spawnSync` would stop the server from answering.
 */
export function runCliAsync(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { cwd, env, timeout } = cliSpawnOptions(options);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'run.js'), ...args], { cwd, env, timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The working directory, environment and timeout every CLI run gets. */
function cliSpawnOptions(options: { env?: NodeJS.ProcessEnv; cwd?: string }): { cwd: string; env: NodeJS.ProcessEnv; encoding: 'utf8'; timeout: number } {
  const commands = path.join(PACKAGE_ROOT, 'dist', 'ts', 'cli', 'commands');
  if (!fs.existsSync(commands)) {
    throw new Error(`${commands} is missing: run \`npm run build\` (or \`npm install\`) before the tests`);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // Verbs that would use the daemon run in-process unless a test brings its own daemon socket:
  // a test must neither reach the user's daemon nor leave an autostarted one behind.
  if (options.env?.GORTEX_DAEMON_SOCKET === undefined) {
    env.GORTEX_DAEMON_SOCKET = path.join(os.tmpdir(), `gortex-no-daemon-${process.pid}.sock`);
    env.GORTEX_AUTOSTART = '0';
  }
  // Jest sets NODE_ENV=test; the CLI must behave as it does for a user.
  delete env.NODE_ENV;
  return { cwd: options.cwd ?? PACKAGE_ROOT, env, encoding: 'utf8', timeout: 60_000 };
}

/** oclif's error text as one line: it wraps long messages under ` › ` markers. */
export function unwrapCliError(stderr: string): string {
  return stderr
    .replace(/^\s*›\s+Error:\s*/m, '')
    .replace(/\s*\n\s*›\s+/g, ' ')
    .trim();
}
