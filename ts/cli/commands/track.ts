import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex track PATH`: serve a repository from the daemon. */
export default class TrackCommand extends GortexCommand {
  static override summary = 'Track a repository: the daemon indexes, watches and serves it.';
  static override description =
    'Adds the repository containing PATH (default: the current directory) to the daemon and waits until it is ' +
    'indexed. Without a running daemon the repository is recorded and served when one starts.';
  static override examples = ['<%= config.bin %> track ../service --name service --project shop'];

  static override args = { path: Args.string({ description: 'A folder inside the repository', required: false }) };
  static override flags = {
    name: Flags.string({ description: 'Name to serve it under (default: the folder name)' }),
    project: Flags.string({ description: 'Project (group of repositories) it belongs to' }),
    json: Flags.boolean({ description: 'Print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(TrackCommand);
    const { resolveRepoRoot } = await import('../../support/repo-root');
    const { daemonPaths } = await import('../../daemon/paths');
    const { controlRequest, DaemonUnavailableError } = await import('../../daemon/client');
    const { RepoSet } = await import('../../daemon/repos');
    const root = resolveRepoRoot(args.path);
    const paths = daemonPaths();
    try {
      const answer = await controlRequest(paths, {
        kind: 'track',
        params: { path: root, ...(flags.name ? { name: flags.name } : {}), ...(flags.project ? { project: flags.project } : {}) },
      });
      if (!answer.ok) this.error(`${answer.error_code}: ${answer.error_msg}`, { exit: answer.error_code === 'invalid_argument' ? 2 : 1 });
      if (flags.json) return this.log(JSON.stringify(answer.result, null, 2));
      const { formatRepos } = await import('../daemon-format');
      this.log(`tracking ${formatRepos([answer.result as never])}`);
    } catch (error) {
      if (!(error instanceof DaemonUnavailableError)) throw error;
      // The daemon would refuse it: do not record what it may not serve.
      const { checkAllowedRoot, configuredAllowedRoots } = await import('../../daemon/repos');
      checkAllowedRoot(root, configuredAllowedRoots());
      const name = flags.name ?? root.split(/[\\/]/).pop()!;
      // Under the list's lock: concurrent tracks (and a daemon stopping meanwhile) keep each other's entries.
      RepoSet.updateList(paths.repos, (entries) => {
        const clash = entries.find((e) => e.name === name && e.root !== root);
        if (clash) this.error(`the name "${name}" is already used by ${clash.root}; pass --name to choose another`, { exit: 2 });
        return [...entries.filter((e) => e.root !== root), { root, name, ...(flags.project ? { project: flags.project } : {}) }];
      });
      this.log(`recorded ${name} (${root}); no daemon is running, it is served when one starts (gortex daemon start)`);
    }
  }
}
