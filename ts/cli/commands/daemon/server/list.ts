import { Flags } from '@oclif/core';
import { GortexCommand } from '../../../base-command';

/** `gortex daemon server list`: the roster of other gortex servers. */
export default class ServerListCommand extends GortexCommand {
  static override summary = 'List the servers tool calls may be routed to (servers.toml).';
  static override description = 'Reads the roster in the gortex home. Tokens are never printed; a restart of the daemon applies changes.';
  static override examples = ['<%= config.bin %> daemon server list'];
  static override flags = { json: Flags.boolean({ description: 'Print the roster as JSON (tokens omitted)' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(ServerListCommand);
    const { loadRosterOrFail } = await import('../../../roster-cli');
    const { servers, file } = await loadRosterOrFail();
    const shown = servers.map((s) => ({ slug: s.slug, url: s.url, default: s.default === true, workspaces: s.workspaces ?? [], token: s.auth_token_env ? `$${s.auth_token_env}` : s.auth_token ? '(inline)' : null }));
    if (flags.json) return this.log(JSON.stringify(shown, null, 2));
    if (shown.length === 0) return this.log(`no servers in ${file} (gortex daemon server add adds one)`);
    for (const s of shown) this.log(`${s.slug}${s.default ? ' (default)' : ''}  ${s.url}  workspaces: ${s.workspaces.join(', ') || '-'}  token: ${s.token ?? 'none'}`);
  }
}
