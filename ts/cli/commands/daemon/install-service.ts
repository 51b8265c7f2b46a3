import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex daemon install-service`: the daemon as a per-user service started at login. */
export default class DaemonInstallServiceCommand extends GortexCommand {
  static override summary = 'Run the daemon as a user service: a systemd user unit (Linux) or a launchd agent (macOS).';
  static override description =
    'Writes ~/.config/systemd/user/gortex.service (Linux) or ~/Library/LaunchAgents/dev.gortex.daemon.plist (macOS) ' +
    'running this gortex with this Node, then enables and starts it. The service starts without flags: give it an ' +
    'HTTP address with daemon.http_addr in the global config. GORTEX_HOME, GORTEX_DAEMON_SOCKET, XDG_CONFIG_HOME and ' +
    'PATH are written into it as they are now; its log is daemon.log in the gortex home (gortex daemon logs). ' +
    'Running it again replaces the service. When the service manager cannot be reached, the file is written and ' +
    'the commands to run are printed.';
  static override examples = ['<%= config.bin %> daemon install-service', '<%= config.bin %> daemon install-service --print', '<%= config.bin %> daemon install-service --no-start'];

  static override flags = {
    print: Flags.boolean({ description: 'Print the service file and where it would go; write nothing' }),
    start: Flags.boolean({ description: 'Enable and start the service after writing it', default: true, allowNo: true }),
    json: Flags.boolean({ description: 'Print the outcome as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonInstallServiceCommand);
    const { formatStep, installService, serviceFile, serviceKind } = await import('../../../daemon/service');
    let kind;
    try {
      kind = serviceKind();
    } catch (error) {
      this.error((error as Error).message, { exit: 1 });
    }
    const file = serviceFile({ kind });
    for (const warning of file.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (flags.print) {
      if (flags.json) this.log(JSON.stringify(file, null, 2));
      else this.log(`# ${file.path}\n${file.text}`);
      return;
    }
    const outcome = installService({ file, load: flags.start });
    if (flags.json) {
      this.log(JSON.stringify(outcome, null, 2));
    } else {
      this.log(`${outcome.replaced ? 'Replaced' : 'Wrote'} ${file.path}`);
      for (const step of outcome.steps) this.log(formatStep(step));
      if (outcome.manual.length > 0) {
        this.log(`${flags.start ? 'The service manager could not be reached; in' : 'To start it now and at every login, in'} your login session run:`);
        for (const command of outcome.manual) this.log(`  ${command}`);
      } else if (flags.start) {
        this.log('The daemon runs now and starts at every login (gortex daemon service-status, gortex daemon logs).');
      }
    }
    if (flags.start && outcome.manual.length > 0) process.exitCode = 1;
  }
}
