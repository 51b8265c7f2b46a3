import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { argumentHelp } from '../tool-flags';

/** `gortex flow --from A --to B`: how a value travels between two symbols. */
export default class FlowCommand extends QueryCommand {
  static override summary = 'Show the dataflow paths from one symbol to another.';
  static override description =
    'Follows values through assignments, call arguments (into the callee’s parameters) and return ' +
    'values (back to the caller), across files, in TypeScript, JavaScript, Python, Go and Java. An ' +
    'endpoint is a function (its parameters and return value), a field, or Symbol#variable such as ' +
    'getUser#req.query.id. Paths are ranked by confidence, then length.';
  static override examples = [
    '<%= config.bin %> flow --from start#seed --to finish#z',
    '<%= config.bin %> flow --from getUser --to buildQuery --json',
  ];

  static override flags = {
    ...queryBaseFlags,
    from: Flags.string({ description: argumentHelp('flow_between', 'source'), required: true }),
    to: Flags.string({ description: argumentHelp('flow_between', 'sink'), required: true }),
    'max-depth': Flags.integer({ description: argumentHelp('flow_between', 'max_depth') }),
    'max-paths': Flags.integer({ description: argumentHelp('flow_between', 'max_paths') }),
    'min-tier': Flags.string({ description: argumentHelp('flow_between', 'min_tier') }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(FlowCommand);
    const { renderFlow } = await import('../render-analysis');
    const args: Record<string, unknown> = { source: flags.from, sink: flags.to };
    if (flags['max-depth'] !== undefined) args.max_depth = flags['max-depth'];
    if (flags['max-paths'] !== undefined) args.max_paths = flags['max-paths'];
    if (flags['min-tier'] !== undefined) args.min_tier = flags['min-tier'];
    await this.runTool('flow_between', args, flags, renderFlow);
  }
}
