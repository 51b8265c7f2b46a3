import { Args } from '@oclif/core';
import { multiHopFlags, QueryCommand, traversalArgs } from '../../query-command';

/** `gortex query callers <name-or-id>`: get_callers. */
export default class QueryCallers extends QueryCommand {
  static override summary = 'Who calls a symbol (reverse call graph), with a caveat when the answer is thin.';
  static override examples = ['<%= config.bin %> query callers Store.save', '<%= config.bin %> query callers Store.save --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = multiHopFlags('get_callers');

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryCallers);
    const { renderTool } = await import('../../render');
    await this.runTool('get_callers', traversalArgs(args.target, flags), flags, renderTool('get_callers'));
  }
}
