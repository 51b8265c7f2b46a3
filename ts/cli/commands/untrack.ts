import { Args } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex untrack PATH_OR_NAME`: stop serving a repository. */
export default class UntrackCommand extends GortexCommand {
  static override summary = 'Stop tracking a repository (by name, root or a path prefix).';
  static override description = 'The daemon stops watching and serving it; its snapshot stays on disk for a later track.';
  static override examples = ['<%= config.bin %> untrack service', '<%= config.bin %> untrack ~/src/old'];

  static override args = { target: Args.string({ description: 'Name, root path or path prefix', required: true }) };

  async run(): Promise<void> {
    const { args } = await this.parse(UntrackCommand);
    const path = await import('node:path');
    const { daemonPaths } = await import('../../daemon/paths');
    const { controlRequest, DaemonUnavailableError } = await import('../../daemon/client');
    const { RepoSet } = await import('../../daemon/repos');
    const paths = daemonPaths();
    // A relative path means a folder here; a bare word may be a name.
    const target = args.target.includes('/') || args.target === '.' ? path.resolve(args.target) : args.target;
    try {
      const answer = await controlRequest(paths, { kind: 'untrack', params: { path_or_name: target } });
      if (!answer.ok) this.error(`${answer.error_code}: ${answer.error_msg}`, { exit: answer.error_code === 'not_found' ? 2 : 1 });
      this.log(`untracked ${(answer.result as { untracked: string[] }).untracked.join(', ')}`);
    } catch (error) {
      if (!(error instanceof DaemonUnavailableError)) throw error;
      const matches = (e: { name: string; root: string }): boolean => e.name === target || e.root === target || e.root.startsWith(target + path.sep);
      let removed: string[] = [];
      // Under the list's lock, as `track` records without a daemon.
      RepoSet.updateList(paths.repos, (entries) => {
        removed = entries.filter(matches).map((e) => e.root);
        return removed.length > 0 ? entries.filter((e) => !matches(e)) : undefined;
      });
      if (removed.length === 0) this.error(`no tracked repository matches "${args.target}"`, { exit: 2 });
      this.log(`untracked ${removed.join(', ')}`);
    }
  }
}
