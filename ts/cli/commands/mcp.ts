import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
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
        'or ":hide"/":defer", or a bare list of tool names. GORTEX_TOOLS overrides it. Default: core (defer).',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpCommand);
    const log = (message: string): void => void process.stderr.write(`gortex mcp: ${message}\n`);
    // Check the tool spec and the server settings before indexing, so a typo fails fast.
    const { resolveSurface, PresetError } = await import('../../tools/presets');
    const { ALL_TOOLS } = await import('../../tools/index');
    const { createMcpServer, serverLimits, ServerConfigError } = await import('../../mcp/server');
    try {
      resolveSurface(process.env.GORTEX_TOOLS?.trim() ? process.env.GORTEX_TOOLS : flags.tools, ALL_TOOLS);
      serverLimits();
    } catch (error) {
      if (error instanceof PresetError || error instanceof ServerConfigError) throw new CliUsageError(error.message);
      throw error;
    }
    const { openEmbedded } = await import('../../mcp/embedded');
    const repo = await openEmbedded(flags.repo, { watch: flags.watch, log });
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = createMcpServer(repo, flags.tools === undefined ? {} : { tools: flags.tools });
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
