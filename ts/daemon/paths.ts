/**
 * Where the daemon's files live: the socket (`GORTEX_DAEMON_SOCKET` > `$XDG_RUNTIME_DIR/gortex.sock`
 * > `<home>/daemon.sock`), and in the gortex home (`GORTEX_HOME`, else `~/.gortex`) its pid file,
 * log, spawn lock and the list of tracked repositories.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { gortexHome } from '../support/home';

/** AF_UNIX path limit on Linux (108 bytes including the NUL); macOS allows 104. */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/** FNV-1a (32-bit) of a string, hex: a short stable name for an over-long socket path. */
function fnv32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Every path the daemon and its clients agree on. */
export interface DaemonPaths {
  home: string;
  socket: string;
  pid: string;
  log: string;
  /** Held (O_EXCL) by the one client that spawns a daemon, so concurrent launches start one. */
  spawnLock: string;
  /** The tracked repositories, so a restarted daemon serves them again. */
  repos: string;
}

/** The daemon's paths under `env` (the process environment by default). */
export function daemonPaths(env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const home = gortexHome(env);
  let socket = env.GORTEX_DAEMON_SOCKET?.trim()
    ? path.resolve(env.GORTEX_DAEMON_SOCKET.trim())
    : env.XDG_RUNTIME_DIR?.trim() && path.isAbsolute(env.XDG_RUNTIME_DIR.trim())
      ? path.join(env.XDG_RUNTIME_DIR.trim(), 'gortex.sock')
      : path.join(home, 'daemon.sock');
  // A path past the AF_UNIX limit cannot be bound: use a short, stable name in the temp dir.
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) socket = path.join(os.tmpdir(), `gx-${fnv32(socket)}.sock`);
  return {
    home,
    socket,
    pid: path.join(home, 'daemon.pid'),
    log: path.join(home, 'daemon.log'),
    spawnLock: path.join(home, 'daemon.spawn.lock'),
    repos: path.join(home, 'daemon-repos.json'),
  };
}
