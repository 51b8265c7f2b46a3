import { Args } from '@oclif/core';
import { multiHopFlags, QueryCommand, traversalArgs } from '../../query-command';

/** `gortex query deps <name-or-id>`: get_dependencies. */
export default class QueryDeps extends QueryCommand {
  static override summary = 'What a symbol or file depends on.';
  static override examples = ['<%= config.bin %> query deps src/app.ts', '<%= config.bin %> query deps src/app.ts --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = multiHopFlags('get_dependencies');

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QueryDeps);
    const { renderTool } = await import('../../render');
    await this.runTool('get_dependencies', traversalArgs(args.target, flags), flags, renderTool('get_dependencies'));
  }
}
