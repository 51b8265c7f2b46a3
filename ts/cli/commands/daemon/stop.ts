import { GortexCommand } from '../../base-command';

/** `gortex daemon stop`: graceful, then bounded. */
export default class DaemonStopCommand extends GortexCommand {
  static override summary = 'Stop the gortex daemon.';
  static override description =
    'Asks the daemon to shut down: it refuses new connections, ends its sessions, lets index refreshes under ' +
    'way finish (so snapshots are written) and exits. A daemon that has not exited after ' +
    'GORTEX_DAEMON_STOP_TIMEOUT milliseconds (default 10000) is killed, and its socket and pid file removed.';
  static override examples = ['<%= config.bin %> daemon stop'];

  async run(): Promise<void> {
    const { stopDaemon } = await import('../../daemon-stop');
    this.log(await stopDaemon());
  }
}
