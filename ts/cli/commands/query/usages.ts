import { Args, Flags } from '@oclif/core';
import { QueryCommand, traversalArgs, traversalFlags } from '../../query-command';

/** `gortex query usages <name-or-id>`: find_usages. */
export default class QueryUsages extends QueryCommand {
  static override summary = 'Every reference to a symbol, with its context (call, parameter_type, field, …).';
  static override examples = ['<%= config.bin %> query usages User --context parameter_type', '<%= config.bin %> query usages User --context parameter_type --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = {
    ...traversalFlags('find_usages'),
    context: Flags.string({
      description: 'Only usages in this context: call, parameter_type, return_type, field, type, value, import',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryUsages);
    const { renderTool } = await import('../../render');
    const toolArgs = traversalArgs(args.target, flags);
    if (flags.context !== undefined) toolArgs.context = flags.context;
    await this.runTool('find_usages', toolArgs, flags, renderTool('find_usages'));
  }
}
