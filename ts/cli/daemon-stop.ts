/** Stopping a daemon: a shutdown request, a bounded wait, then a kill. */
import * as fs from 'node:fs';

/** How long `stop` waits for a graceful exit (`GORTEX_DAEMON_STOP_TIMEOUT` ms, default 10 s). */
function stopTimeoutMs(): number {
  const ms = Number(process.env.GORTEX_DAEMON_STOP_TIMEOUT);
  return Number.isFinite(ms) && ms > 0 ? ms : 10_000;
}

/** Stops the daemon of the current paths; returns what happened, in words. */
export async function stopDaemon(): Promise<string> {
  const { daemonPaths } = await import('../daemon/paths');
  const { processAlive, readPid } = await import('../daemon/daemon');
  const { controlRequest, DaemonUnavailableError } = await import('../daemon/client');
  const paths = daemonPaths();
  let pid = readPid(paths.pid);
  try {
    const answer = await controlRequest(paths, { kind: 'shutdown' });
    if (answer.ok) pid = (answer.result as { pid?: number } | undefined)?.pid ?? pid;
  } catch (error) {
    if (!(error instanceof DaemonUnavailableError)) throw error;
    if (pid === undefined || !processAlive(pid)) {
      // Nothing answers and nothing runs: clear leftovers of a daemon that died.
      fs.rmSync(paths.socket, { force: true });
      fs.rmSync(paths.pid, { force: true });
      return 'gortex daemon is not running';
    }
  }
  if (pid === undefined) return 'gortex daemon stopped';
  const deadline = Date.now() + stopTimeoutMs();
  while (processAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!processAlive(pid)) return `gortex daemon stopped (pid ${pid})`;
  process.kill(pid, 'SIGKILL');
  fs.rmSync(paths.socket, { force: true });
  fs.rmSync(paths.pid, { force: true });
  return `gortex daemon (pid ${pid}) did not stop within ${stopTimeoutMs()} ms and was killed`;
}
