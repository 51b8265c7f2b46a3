import { Args } from '@oclif/core';
import { GortexCommand } from '../../../base-command';

/** `gortex daemon server remove SLUG`. */
export default class ServerRemoveCommand extends GortexCommand {
  static override summary = 'Remove a server from the roster.';
  static override examples = ['<%= config.bin %> daemon server remove cloud'];
  static override args = { slug: Args.string({ description: 'The server slug', required: true }) };

  async run(): Promise<void> {
    const { args } = await this.parse(ServerRemoveCommand);
    const { loadRosterOrFail } = await import('../../../roster-cli');
    const { writeRoster } = await import('../../../../daemon/roster');
    const { UsageError } = await import('../../../../support/usage-error');
    const { servers, file } = await loadRosterOrFail();
    if (!servers.some((s) => s.slug === args.slug)) {
      throw new UsageError(`no server "${args.slug}" in ${file}; servers: ${servers.map((s) => s.slug).join(', ') || 'none'}`);
    }
    writeRoster(file, servers.filter((s) => s.slug !== args.slug));
    this.log(`removed ${args.slug} from ${file}; restart the daemon (gortex daemon restart) to apply`);
  }
}
