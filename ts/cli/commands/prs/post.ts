import * as fs from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { UsageError } from '../../../support/usage-error';
import { forgeFlags } from './list';

/** `gortex prs post N`: review findings posted to PR N as one review with inline comments. */
export default class PrsPostCommand extends QueryCommand {
  static override summary = 'Post review findings to a pull request as one review with inline comments.';
  static override description =
    'Reviews the working tree against --base (or reads --findings, a JSON array as review answers it) and posts the findings to PR N: ' +
    'inline comments on the diff\'s lines, the rest in the summary, REQUEST_CHANGES on a BLOCK verdict. Secrets are redacted from every body. ' +
    'Public repositories and fork PRs need --confirm-public; --dry-run prints the payloads and sends nothing.';
  static override examples = ['<%= config.bin %> prs post 42 --base origin/main --dry-run', '<%= config.bin %> prs post 42 --base origin/main'];
  static override args = { number: Args.integer({ description: 'The PR (MR) number', required: true }) };
  static override flags = {
    ...forgeFlags,
    base: Flags.string({ description: 'Review the working tree against this ref (the PR\'s base)' }),
    findings: Flags.string({ description: 'A JSON file of findings to post instead of reviewing (- reads stdin)' }),
    'dry-run': Flags.boolean({ description: 'Print the would-post payloads; no network call' }),
    'confirm-public': Flags.boolean({ description: 'Post even though the repository is public or the PR comes from a fork' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PrsPostCommand);
    const call: Record<string, unknown> = { number: args.number };
    if (flags['forge-repo'] !== undefined) call.forge_repo = flags['forge-repo'];
    if (flags.base !== undefined) call.base = flags.base;
    if (flags['dry-run']) call.dry_run = true;
    if (flags['confirm-public']) call.confirm_public = true;
    if (flags.findings !== undefined) {
      try {
        const parsed = JSON.parse(fs.readFileSync(flags.findings === '-' ? 0 : flags.findings, 'utf8')) as unknown;
        call.findings = Array.isArray(parsed) ? parsed : (parsed as { findings?: unknown }).findings;
      } catch (e) {
        throw new UsageError(`--findings ${flags.findings}: ${(e as Error).message}`);
      }
    }
    if (call.base === undefined && call.findings === undefined) throw new UsageError('pass --base <ref> (the PR\'s base, to review against) or --findings <file>');
    const { renderPosted } = await import('../../render-prs');
    await this.runTool('post_review', call, flags, renderPosted);
  }
}
