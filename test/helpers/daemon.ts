/** A private daemon world for tests: its own home and socket, never the user's daemon. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixtureCopy, tempHome } from './repo';

/** A fresh gortex home, a socket path short enough for AF_UNIX, and the environment naming both. */
export function daemonWorld(): { home: string; socket: string; env: Record<string, string> } {
  const home = tempHome();
  const socket = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gx-')), 'd.sock');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: home, GORTEX_DAEMON_SOCKET: socket, GORTEX_THREADS: '2' };
  // The CLI must behave as it does for a user, and start or reach only this world's daemon.
  delete env.NODE_ENV;
  delete env.XDG_RUNTIME_DIR;
  delete env.GORTEX_AUTOSTART;
  delete env.GORTEX_TOOLS;
  return { home, socket, env };
}

/** A fixture copy that is a git work tree with one commit. */
export function gitFixture(fixture: string, name: string): string {
  const root = fixtureCopy(fixture, name);
  const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return root;
}
