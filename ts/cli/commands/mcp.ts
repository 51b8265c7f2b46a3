import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import type { McpServerOptions } from '../../mcp/server';
import { CliUsageError } from '../repo-root';

/** `gortex mcp`: the MCP server over stdio, embedded in this process. */
export default class McpCommand extends GortexCommand {
  static override summary = 'Serve the code graph to an AI agent over MCP (stdio).';
  static override description =
    'Indexes the repository containing the working directory (or --repo; the saved snapshot makes this ' +
    'quick), then answers MCP requests on stdin/stdout with every gortex tool. Files are watched while ' +
    'the session runs and re-indexed incrementally, so answers follow your edits. Logs go to stderr.';
  static override examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --repo ../service --no-watch'];

  static override flags = {
    repo: Flags.string({ description: 'A folder inside the repository to serve (default: the current directory)' }),
    watch: Flags.boolean({ description: 'Re-index files as they change on disk', default: true, allowNo: true }),
    tools: Flags.string({
      description:
        'Tool surface: a preset (core, agent, full, readonly, edit, nav, localization), optionally "preset,+tool,-tool" ' +
        'or ":hide"/":defer", or a bare list of tool names. GORTEX_TOOLS overrides it; it overrides mcp.tools of ' +
        '.gortex.yaml and the global config. Default: core (defer), or the compact surface for a client that names itself.',
    }),
    'tools-mode': Flags.string({ description: 'defer or hide: the mode of the chosen surface (GORTEX_TOOLS_MODE overrides it)', options: ['defer', 'hide'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpCommand);
    const log = (message: string): void => void process.stderr.write(`gortex mcp: ${message}\n`);
    // Check the config, the tool spec and the server settings before indexing, so a typo fails fast.
    const { resolveSurface, PresetError } = await import('../../tools/presets');
    const { ALL_TOOLS } = await import('../../tools/index');
    const { createMcpServer, chosenSpec, serverLimits, ServerConfigError } = await import('../../mcp/server');
    const { loadConfig, ConfigError } = await import('../../config/config');
    const { resolveRepoRoot } = await import('../repo-root');
    const options: McpServerOptions = {};
    if (flags.tools !== undefined) options.tools = flags.tools;
    if (flags['tools-mode'] !== undefined) options.toolsMode = flags['tools-mode'];
    try {
      const config = loadConfig(resolveRepoRoot(flags.repo));
      for (const warning of config.warnings) log(`config: ${warning}`);
      if (config.tools) options.config = config.tools;
      const chosen = chosenSpec(options);
      if (chosen) {
        try {
          resolveSurface(chosen.spec, ALL_TOOLS, 'check');
        } catch (error) {
          if (error instanceof PresetError) throw new PresetError(`${chosen.source}: ${error.message}`);
          throw error;
        }
      }
      serverLimits();
    } catch (error) {
      if (error instanceof PresetError || error instanceof ServerConfigError || error instanceof ConfigError) throw new CliUsageError(error.message);
      throw error;
    }
    const { openEmbedded } = await import('../../mcp/embedded');
    const repo = await openEmbedded(flags.repo, { watch: flags.watch, log });
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = createMcpServer(repo, options);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    log(`serving ${(await repo.context()).root}`);
    await closed;
    repo.close();
    await server.close();
  }
}
