import { Args } from '@oclif/core';
import { multiHopFlags, QueryCommand, traversalArgs } from '../../query-command';

/** `gortex query dependents <name-or-id>`: get_dependents. */
export default class QueryDependents extends QueryCommand {
  static override summary = 'What depends on a symbol or file (blast radius).';
  static override examples = ['<%= config.bin %> query dependents Config --depth 2', '<%= config.bin %> query dependents Config --depth 2 --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = multiHopFlags('get_dependents');

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryDependents);
    const { renderTool } = await import('../../render');
    await this.runTool('get_dependents', traversalArgs(args.target, flags), flags, renderTool('get_dependents'));
  }
}
