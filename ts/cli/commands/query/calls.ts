import { Args } from '@oclif/core';
import { multiHopFlags, QueryCommand, traversalArgs } from '../../query-command';

/** `gortex query calls <name-or-id>`: get_call_chain. */
export default class QueryCalls extends QueryCommand {
  static override summary = 'What a symbol calls (forward call graph), unresolved calls included.';
  static override examples = ['<%= config.bin %> query calls handleRequest --depth 2', '<%= config.bin %> query calls handleRequest --depth 2 --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = multiHopFlags('get_call_chain');

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryCalls);
    const { renderTool } = await import('../../render');
    await this.runTool('get_call_chain', traversalArgs(args.target, flags), flags, renderTool('get_call_chain'));
  }
}
