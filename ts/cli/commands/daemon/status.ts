import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex daemon status`: repositories, freshness, memory, sessions, uptime. */
export default class DaemonStatusCommand extends GortexCommand {
  static override summary = 'Show what the daemon serves: repositories, freshness, memory, sessions.';
  static override description = 'Asks the running daemon for its status. Exits with code 1 when no daemon is running.';
  static override examples = ['<%= config.bin %> daemon status', '<%= config.bin %> daemon status --json'];

  static override flags = {
    json: Flags.boolean({ description: 'Print the status as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonStatusCommand);
    const { daemonPaths } = await import('../../../daemon/paths');
    const { controlRequest, DaemonUnavailableError } = await import('../../../daemon/client');
    const { formatDaemonStatus } = await import('../../daemon-format');
    let answer;
    try {
      answer = await controlRequest(daemonPaths(), { kind: 'status' });
    } catch (error) {
      if (error instanceof DaemonUnavailableError) this.error(error.message, { exit: 1 });
      throw error;
    }
    if (!answer.ok) this.error(`${answer.error_code}: ${answer.error_msg}`, { exit: 1 });
    this.log(flags.json ? JSON.stringify(answer.result, null, 2) : formatDaemonStatus(answer.result as never));
  }
}
