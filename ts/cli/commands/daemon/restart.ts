import { GortexCommand } from '../../base-command';
import { daemonStartFlags } from '../../daemon-run';

/** `gortex daemon restart`: stop, then start detached (warm: tracked repositories reload from snapshots). */
export default class DaemonRestartCommand extends GortexCommand {
  static override summary = 'Restart the gortex daemon in the background.';
  static override description =
    'Stops the running daemon (as gortex daemon stop does) and starts a detached one with the given flags. ' +
    'Tracked repositories are served again from their snapshots, so the restart is warm.';
  static override examples = ['<%= config.bin %> daemon restart'];

  static override flags = { ...daemonStartFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonRestartCommand);
    const { stopDaemon } = await import('../../daemon-stop');
    const { startArgs } = await import('../../daemon-run');
    const { daemonPaths } = await import('../../../daemon/paths');
    const { spawnDaemon, SERVE_ONLY_FLAG } = await import('../../../daemon/client');
    this.log(await stopDaemon());
    const paths = daemonPaths();
    // The restarted daemon serves what the stopped one served, not the folder restart ran in.
    const args = startArgs(flags);
    if (!args.includes(SERVE_ONLY_FLAG)) args.push(SERVE_ONLY_FLAG);
    const pid = await spawnDaemon(paths, args);
    this.log(`gortex daemon started (pid ${pid}, socket ${paths.socket}, log ${paths.log})`);
  }
}
