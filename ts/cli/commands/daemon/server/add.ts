import { Flags } from '@oclif/core';
import { GortexCommand } from '../../../base-command';

/** `gortex daemon server add`: adds (or replaces) a roster server. */
export default class ServerAddCommand extends GortexCommand {
  static override summary = 'Add a server tool calls can be routed to, by workspace.';
  static override description =
    'Adds or replaces a [[server]] in servers.toml: a daemon socket (unix:///path) or an HTTP server (https://host/v1). ' +
    'Calls whose workspace (the call\'s workspace argument, else the repository\'s .gortex.yaml workspace) is listed go ' +
    'there; --default takes every call no server claims. Prefer --auth-token-env over --auth-token. Restart the daemon to apply.';
  static override examples = ['<%= config.bin %> daemon server add --slug cloud --url https://gortex.example.com/v1 --auth-token-env GORTEX_CLOUD_TOKEN --workspace payments'];
  static override flags = {
    slug: Flags.string({ description: 'Short name of the server', required: true }),
    url: Flags.string({ description: 'unix:///path/to/socket or https://host/v1', required: true }),
    workspace: Flags.string({ description: 'A workspace slug it serves (repeatable)', multiple: true }),
    default: Flags.boolean({ description: 'Route calls that no server claims here' }),
    'auth-token': Flags.string({ description: 'Bearer token (stored in the file; prefer --auth-token-env)' }),
    'auth-token-env': Flags.string({ description: 'Environment variable the daemon reads the token from at request time' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ServerAddCommand);
    const { loadRosterOrFail } = await import('../../../roster-cli');
    const { checkUrl, writeRoster, RosterError } = await import('../../../../daemon/roster');
    const { UsageError } = await import('../../../../support/usage-error');
    const { servers, file } = await loadRosterOrFail();
    try {
      checkUrl(flags.url, '--url');
    } catch (error) {
      if (error instanceof RosterError) throw new UsageError(error.message);
      throw error;
    }
    if (!/^[\w.-]{1,64}$/.test(flags.slug)) throw new UsageError('--slug must be a short name (letters, digits, _ . -)');
    if (flags['auth-token'] !== undefined && flags['auth-token-env'] !== undefined) throw new UsageError('give --auth-token or --auth-token-env, not both');
    const entry = {
      slug: flags.slug,
      url: flags.url,
      ...(flags.default ? { default: true } : {}),
      ...(flags['auth-token'] !== undefined ? { auth_token: flags['auth-token'] } : {}),
      ...(flags['auth-token-env'] !== undefined ? { auth_token_env: flags['auth-token-env'] } : {}),
      ...(flags.workspace ? { workspaces: flags.workspace } : {}),
    };
    const rest = servers.filter((s) => s.slug !== flags.slug).map((s) => (flags.default && s.default ? (({ default: _d, ...k }) => k)(s) : s));
    writeRoster(file, [...rest, entry]);
    this.log(`${servers.some((s) => s.slug === flags.slug) ? 'replaced' : 'added'} ${flags.slug} in ${file}; restart the daemon (gortex daemon restart) to apply`);
  }
}
