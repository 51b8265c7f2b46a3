import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** Shows what is indexed for a repository and whether it still matches the files on disk. */
export default class StatusCommand extends GortexCommand {
  static override summary = 'Show what is indexed and whether it is fresh.';
  static override description =
    'Reads the saved snapshot and compares it with the files on disk (without parsing anything): ' +
    'lists modified, added and deleted files, and the files that were skipped or failed to parse.';
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status ../other-repo --json'];

  static override args = {
    path: Args.string({
      description: 'A folder inside the repository (default: the current directory)',
      required: false,
    }),
  };

  static override flags = {
    json: Flags.boolean({ description: 'Print the status report as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(StatusCommand);
    const { resolveRepoRoot } = await import('../../support/repo-root');
    const root = resolveRepoRoot(args.path);
    const { Engine } = await import('../../engine/engine');
    const status = new Engine().status(root);
    if (flags.json) {
      this.log(JSON.stringify(status, null, 2));
      return;
    }
    const { formatStatusSummary } = await import('../summaries');
    this.log(formatStatusSummary(status));
  }
}
