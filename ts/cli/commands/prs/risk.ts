import { Args } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { UsageError } from '../../../support/usage-error';
import { forgeFlags } from './list';

/** `gortex prs risk N`: the graph-joined blast radius and risk of one PR, its files read from the forge. */
export default class PrsRiskCommand extends QueryCommand {
  static override summary = 'Risk and blast radius of one pull request (get_pr_impact of its files).';
  static override description =
    'Fetches PR N\'s changed files from the forge (GitHub pulls/N/files or GitLab merge_requests/N/changes, with the token of this shell) ' +
    'and maps them onto the graph: five risk axes, a level, what to review first and the affected callers and tests.';
  static override examples = ['<%= config.bin %> prs risk 42', '<%= config.bin %> prs risk 42 --json'];
  static override args = { number: Args.integer({ description: 'The PR (MR) number', required: true }) };
  static override flags = forgeFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PrsRiskCommand);
    const files = await this.fetchFiles(args.number, flags).catch((e: Error & { code?: string }) => {
      // A forge refusal reads like any tool's: `code: message`, exit 2.
      throw e.name === 'ToolInputError' ? new UsageError(`${e.code}: ${e.message}`) : e;
    });
    const { renderImpact } = await import('../../render-prs');
    await this.runTool('get_pr_impact', { files }, flags, (r) => renderImpact(args.number, r));
  }

  /** PR `number`'s changed files, from the forge of the repository's origin (or --forge-repo). */
  private async fetchFiles(number: number, flags: { repo?: string | undefined; 'forge-repo'?: string | undefined }): Promise<Record<string, unknown>[]> {
    const { resolveRepoRoot } = await import('../../../support/repo-root');
    const { resolveForgeRepo, clientFor } = await import('../../../tools/forge-client');
    const repo = await resolveForgeRepo(resolveRepoRoot(flags.repo), flags['forge-repo']);
    // The files are fetched here, with this shell's token, so the daemon needs none for this verb.
    const client = clientFor(repo, 'gortex prs risk', 'the PR\'s files yourself to `gortex call get_pr_impact --arg files:=[…]`');
    return repo.kind === 'github'
        ? (await client.list(`${client.base}/pulls/${number}/files`)).rows.map((f: { filename: string; status?: string; patch?: string; previous_filename?: string }) => ({
            filename: f.filename,
            ...(f.status ? { status: f.status } : {}),
            ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
            ...(typeof f.patch === 'string' ? { patch: f.patch } : {}),
          }))
        : ((await client.get(`${client.base}/merge_requests/${number}/changes`)).changes as { new_path: string; old_path: string; diff?: string; deleted_file?: boolean; renamed_file?: boolean }[]).map((f) => ({
            path: f.new_path,
            status: f.deleted_file ? 'removed' : 'modified',
            ...(f.renamed_file ? { previous_filename: f.old_path } : {}),
            ...(typeof f.diff === 'string' ? { patch: f.diff } : {}),
          }));
  }
}
