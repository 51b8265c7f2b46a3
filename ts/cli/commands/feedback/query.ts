import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex feedback query`: what agents rated — most useful, most missed, accuracy per tool. */
export default class FeedbackQueryCommand extends QueryCommand {
  static override summary = 'Aggregate agent feedback: most useful and most missed symbols, precision and recall per tool.';
  static override examples = ['<%= config.bin %> feedback query', '<%= config.bin %> feedback query --since 7d --all --json'];
  static override flags = {
    ...queryBaseFlags,
    since: Flags.string({ description: 'Only ratings this recent (7d, 12h, 2w)' }),
    'top-n': Flags.integer({ description: 'Rows per top list (default 10)' }),
    all: Flags.boolean({ description: "Every repository's feedback" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(FeedbackQueryCommand);
    const args: Record<string, unknown> = { action: 'query' };
    if (flags.since !== undefined) args.since = flags.since;
    if (flags['top-n'] !== undefined) args.top_n = flags['top-n'];
    if (flags.all) args.all_repos = true;
    const { renderFeedbackReport } = await import('../../render-memory');
    await this.runTool('feedback', args, flags, renderFeedbackReport);
  }
}
