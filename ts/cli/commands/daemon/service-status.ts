import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex daemon service-status`: whether the user service is installed and running. */
export default class DaemonServiceStatusCommand extends GortexCommand {
  static override summary = 'Show whether the user service is installed, what it runs and what its manager says.';
  static override description = 'Exits with code 1 when no service is installed.';
  static override examples = ['<%= config.bin %> daemon service-status'];

  static override flags = {
    json: Flags.boolean({ description: 'Print the status as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonServiceStatusCommand);
    const { serviceStatus } = await import('../../../daemon/service');
    let status;
    try {
      status = serviceStatus();
    } catch (error) {
      this.error((error as Error).message, { exit: 1 });
    }
    if (flags.json) this.log(JSON.stringify(status, null, 2));
    else {
      this.log(`${status.kind} service: ${status.installed ? 'installed' : 'not installed'} (${status.path})`);
      if (status.command) this.log(`runs:  ${status.command}`);
      if (status.installed) this.log(`state: ${status.state}`);
    }
    if (!status.installed) process.exitCode = 1;
  }
}
