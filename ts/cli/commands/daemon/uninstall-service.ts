import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex daemon uninstall-service`: stops the user service and removes its file. */
export default class DaemonUninstallServiceCommand extends GortexCommand {
  static override summary = 'Stop and remove the user service install-service wrote.';
  static override description =
    'Disables and stops the service (systemctl --user disable --now, or launchctl bootout) and deletes its file. ' +
    'The gortex home — snapshots, tracked repositories, the log — is kept. Removing a service that is not installed is not an error.';
  static override examples = ['<%= config.bin %> daemon uninstall-service'];

  static override flags = {
    json: Flags.boolean({ description: 'Print the outcome as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonUninstallServiceCommand);
    const { formatStep, uninstallService } = await import('../../../daemon/service');
    let outcome;
    try {
      outcome = uninstallService();
    } catch (error) {
      this.error((error as Error).message, { exit: 1 });
    }
    if (flags.json) {
      this.log(JSON.stringify(outcome, null, 2));
      return;
    }
    if (!outcome.removed) {
      this.log(`No service installed (${outcome.path} does not exist).`);
      return;
    }
    for (const step of outcome.steps) this.log(formatStep(step));
    this.log(`Removed ${outcome.path}`);
  }
}
