import { Args } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex query symbol <name-or-id>`: get_symbol. */
export default class QuerySymbol extends QueryCommand {
  static override summary = 'Show a symbol: location, signature, doc and edge counts.';
  static override examples = ['<%= config.bin %> query symbol parseConfig', '<%= config.bin %> query symbol parseConfig --json'];

  static override args = {
    target: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
  };

  static override flags = queryBaseFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(QuerySymbol);
    const { renderTool } = await import('../../render');
    await this.runTool('get_symbol', { id: args.target }, flags, renderTool('get_symbol'));
  }
}
