import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** Flags every `gortex prs` verb takes. */
export const forgeFlags = {
  ...queryBaseFlags,
  'forge-repo': Flags.string({ description: 'The forge repository as owner/name (default: the origin remote)' }),
};

/** `gortex prs list`: open PRs with a review state, a CI rollup and merge blockers. */
export default class PrsListCommand extends QueryCommand {
  static override summary = 'List open pull requests with their review state, CI rollup and merge blockers.';
  static override description =
    'Reads the open PRs of the origin remote\'s GitHub (GH_TOKEN / GITHUB_TOKEN) or GitLab (GITLAB_TOKEN) repository and labels each ' +
    'DRAFT, BASE_MISMATCH, CHANGES_REQUESTED, APPROVED, STALE or READY, with a CI rollup and what blocks merging.';
  static override examples = ['<%= config.bin %> prs list', '<%= config.bin %> prs list --base main --stale-days 7 --json'];
  static override flags = {
    ...forgeFlags,
    base: Flags.string({ description: 'The branch PRs should target (default: the default branch)' }),
    'stale-days': Flags.integer({ description: 'Days without an update that make a PR STALE (default 14)' }),
    limit: Flags.integer({ description: 'Most open PRs read (default 30)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(PrsListCommand);
    const args: Record<string, unknown> = {};
    if (flags['forge-repo'] !== undefined) args.forge_repo = flags['forge-repo'];
    if (flags.base !== undefined) args.base = flags.base;
    if (flags['stale-days'] !== undefined) args.stale_days = flags['stale-days'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    const { renderPrList } = await import('../../render-prs');
    await this.runTool('list_prs', args, flags, renderPrList);
  }
}
