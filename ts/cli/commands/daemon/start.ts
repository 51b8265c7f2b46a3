import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';
import { daemonStartFlags } from '../../daemon-run';

/** `gortex daemon start`: one shared process serving every tracked repository. */
export default class DaemonStartCommand extends GortexCommand {
  static override summary = 'Start the gortex daemon (in the foreground, or --detach).';
  static override description =
    'Starts one process that keeps every tracked repository indexed and watched, and serves MCP sessions ' +
    '(gortex mcp connects to it) and control requests on a Unix socket: GORTEX_DAEMON_SOCKET, else ' +
    '$XDG_RUNTIME_DIR/gortex.sock, else ~/.gortex/daemon.sock (GORTEX_HOME moves ~/.gortex). The repository ' +
    'containing the working directory is tracked, as are those tracked before. Logs go to stderr, or to ' +
    'daemon.log in the gortex home with --detach.';
  static override examples = ['<%= config.bin %> daemon start --detach', '<%= config.bin %> daemon start --tools agent'];

  static override flags = {
    detach: Flags.boolean({ description: 'Run in the background and return once the daemon listens' }),
    ...daemonStartFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStartCommand);
    const { runDaemonForeground, startArgs } = await import('../../daemon-run');
    if (!flags.detach) return runDaemonForeground(flags);
    const { daemonPaths } = await import('../../../daemon/paths');
    const { socketAnswers, readPid } = await import('../../../daemon/daemon');
    const { spawnDaemon } = await import('../../../daemon/client');
    const paths = daemonPaths();
    if (await socketAnswers(paths.socket)) {
      this.log(`gortex daemon is already running (pid ${readPid(paths.pid) ?? 'unknown'}, socket ${paths.socket})`);
      return;
    }
    const pid = await spawnDaemon(paths, startArgs(flags));
    this.log(`gortex daemon started (pid ${pid}, socket ${paths.socket}, log ${paths.log})`);
  }
}
