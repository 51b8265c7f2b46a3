import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex repos`: the tracked repositories and their state. */
export default class ReposCommand extends GortexCommand {
  static override summary = 'List the tracked repositories.';
  static override description = "With a running daemon: each repository's warm-up phase, counts and freshness. Without one: the recorded list.";
  static override examples = ['<%= config.bin %> repos', '<%= config.bin %> repos --json'];

  static override flags = { json: Flags.boolean({ description: 'Print the list as JSON' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(ReposCommand);
    const { daemonPaths } = await import('../../daemon/paths');
    const { controlRequest, DaemonUnavailableError } = await import('../../daemon/client');
    const { RepoSet } = await import('../../daemon/repos');
    const { formatRepos } = await import('../daemon-format');
    const paths = daemonPaths();
    try {
      const answer = await controlRequest(paths, { kind: 'status' });
      if (!answer.ok) this.error(`${answer.error_code}: ${answer.error_msg}`, { exit: 1 });
      const repos = (answer.result as { repos: never[] }).repos;
      this.log(flags.json ? JSON.stringify(repos, null, 2) : formatRepos(repos));
    } catch (error) {
      if (!(error instanceof DaemonUnavailableError)) throw error;
      const entries = RepoSet.readList(paths.repos);
      if (flags.json) return this.log(JSON.stringify(entries, null, 2));
      this.log(entries.length === 0 ? 'no repositories are tracked (gortex track PATH adds one)' : entries.map((e) => `${e.name}${e.project ? ` [${e.project}]` : ''}  ${e.root}  (daemon not running)`).join('\n'));
    }
  }
}
