import { Args } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex query implementations <name-or-id>`: find_implementations. */
export default class QueryImplementations extends QueryCommand {
  static override summary = 'Types implementing an interface.';
  static override examples = ['<%= config.bin %> query implementations Repository', '<%= config.bin %> query implementations Repository --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = queryBaseFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryImplementations);
    const { renderTool } = await import('../../render');
    await this.runTool('find_implementations', { id: args.target }, flags, renderTool('find_implementations'));
  }
}
