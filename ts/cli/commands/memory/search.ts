import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex memory search`: memories matching words, ranked as agents get them. */
export default class MemorySearchCommand extends QueryCommand {
  static override summary = 'Find memories by words and by the code they are about.';
  static override description = 'Ranks as surface_memories does: words matched, anchors on the --symbol / --file given (or one call away), kind, recency.';
  static override examples = ['<%= config.bin %> memory search "token refresh"', '<%= config.bin %> memory search --symbol login'];
  static override args = { query: Args.string({ description: 'Words to match' }) };
  static override flags = {
    ...queryBaseFlags,
    symbol: Flags.string({ description: 'Rank memories about this symbol first; repeatable', multiple: true }),
    file: Flags.string({ description: 'Rank memories about this file first; repeatable', multiple: true }),
    kind: Flags.string({ description: 'Only this kind; repeatable', options: ['memory', 'decision', 'invariant', 'risk_ack', 'note'], multiple: true }),
    limit: Flags.integer({ description: 'Most memories shown (default 10)', default: 10 }),
    all: Flags.boolean({ description: "Also other repositories' memories" }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemorySearchCommand);
    if (args.query === undefined && !flags.symbol && !flags.file) this.error('give words to search for, or --symbol / --file', { exit: 2 });
    const call: Record<string, unknown> = { limit: flags.limit };
    if (args.query !== undefined) call.query = args.query;
    if (flags.symbol) call.symbols = flags.symbol;
    if (flags.file) call.files = flags.file;
    if (flags.kind) call.kinds = flags.kind;
    if (flags.all) call.all_repos = true;
    const { renderMemories } = await import('../../render-memory');
    await this.runTool('surface_memories', call, flags, renderMemories);
  }
}
