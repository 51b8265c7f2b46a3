import { Flags } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { forgeFlags } from './list';

/** `gortex prs triage`: open PRs ranked by graph-derived review priority. */
export default class PrsTriageCommand extends QueryCommand {
  static override summary = 'Rank open pull requests by graph-derived risk: which to review first.';
  static override description = 'Maps each open PR\'s changed files to symbols (get_pr_impact) and orders the PRs by risk score, level and size.';
  static override examples = ['<%= config.bin %> prs triage', '<%= config.bin %> prs triage --json'];
  static override flags = {
    ...forgeFlags,
    limit: Flags.integer({ description: 'Most open PRs read (default 30)' }),
    'use-llm': Flags.boolean({ description: 'Re-rank with one pass of the configured language model, a rationale per PR' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(PrsTriageCommand);
    const args: Record<string, unknown> = {};
    if (flags['forge-repo'] !== undefined) args.forge_repo = flags['forge-repo'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    if (flags['use-llm']) args.use_llm = true;
    const { renderTriage } = await import('../../render-prs');
    await this.runTool('triage_prs', args, flags, renderTriage);
  }
}
