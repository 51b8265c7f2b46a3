import { constants as osConstants } from 'node:os';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import type { McpServerOptions } from '../../mcp/server';
import { UsageError } from '../../support/usage-error';

/** `gortex mcp`: MCP over stdio, through the shared daemon (started on demand) or embedded. */
export default class McpCommand extends GortexCommand {
  static override summary = 'Serve the code graph to an AI agent over MCP (stdio).';
  static override description =
    'Connects stdin/stdout to the gortex daemon, starting one if none runs (exactly one, however many clients ' +
    'start at once), so every editor and agent shares one warm, watched graph of the repository containing the ' +
    'working directory (or --repo). It serves embedded, in this process, with --embedded, when ' +
    'GORTEX_AUTOSTART=0 and no daemon runs, or when no daemon can start (it says so on stderr). Embedded, the ' +
    'snapshot makes opening quick and files are watched while the session runs. Logs go to stderr.';
  static override examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --repo ../service', '<%= config.bin %> mcp --embedded --no-watch'];

  static override flags = {
    repo: Flags.string({ description: 'A folder inside the repository to serve (default: the current directory)' }),
    embedded: Flags.boolean({ description: 'Serve in this process instead of through the daemon' }),
    watch: Flags.boolean({ description: 'Embedded: re-index files as they change on disk (the daemon always watches)', default: true, allowNo: true }),
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
    const { PresetError } = await import('../../tools/presets');
    const { chosenSpec, resolveSpec } = await import('../../calls/session');
    const { serverLimits, ServerConfigError } = await import('../../calls/limits');
    const { createMcpServer } = await import('../../mcp/server');
    const { loadConfig, ConfigError } = await import('../../config/config');
    const { resolveRepoRoot } = await import('../../support/repo-root');
    const options: McpServerOptions = {};
    let chosen: { spec: string; source: string } | undefined;
    if (flags.tools !== undefined) options.tools = flags.tools;
    if (flags['tools-mode'] !== undefined) options.toolsMode = flags['tools-mode'];
    try {
      const config = loadConfig(resolveRepoRoot(flags.repo));
      for (const warning of config.warnings) log(`config: ${warning}`);
      if (config.tools) options.config = config.tools;
      chosen = chosenSpec(options);
      if (chosen) {
        try {
          resolveSpec(chosen.spec, 'check');
        } catch (error) {
          if (error instanceof PresetError) throw new PresetError(`${chosen.source}: ${error.message}`);
          throw error;
        }
      }
      serverLimits();
    } catch (error) {
      if (error instanceof PresetError || error instanceof ServerConfigError || error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    if (!flags.embedded) {
      const { proxyToDaemon } = await import('../mcp-proxy');
      const root = resolveRepoRoot(flags.repo);
      const outcome = await proxyToDaemon(root, chosen?.spec, log);
      if (outcome === 'served') return;
    }
    const stop = stopSignals(log);
    const { openEmbedded } = await import('../../workspace/embedded');
    const repo = await openEmbedded(flags.repo, { watch: flags.watch, log });
    if (stop.requested === undefined) {
      const { serveOverStreams } = await import('../../mcp/streams');
      const { embeddedWorkspace } = await import('../../workspace/embedded');
      const { embeddedPushSources } = await import('../../workspace/push-sources');
      const server = createMcpServer(repo, { ...options, workspace: embeddedWorkspace(repo), push: embeddedPushSources(repo) });
      const { closed } = await serveOverStreams(server);
      log(`serving ${(await repo.context()).root}`);
      await Promise.race([closed, stop.signalled]);
      await server.close();
    }
    // A refresh under way (or one the watcher just asked for) finishes, then the deferred snapshot is written.
    await repo.context();
    repo.close();
    stop.dispose();
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(0);
  }
}

/**
 * SIGTERM and SIGINT end an embedded server cleanly (the MCP SDK's `close()` and the MCP Inspector
 * send SIGTERM): what it indexed is saved before it exits 0. During the opening pass SIGTERM lets
 * the pass finish and save its snapshot, so the next session starts warm (SIGINT cancels it, as it
 * does for `gortex index`); a second signal exits at once.
 */
function stopSignals(log: (message: string) => void): { signalled: Promise<void>; requested: string | undefined; dispose(): void } {
  let resolve!: () => void;
  const state = {
    signalled: new Promise<void>((r) => (resolve = r)),
    requested: undefined as string | undefined,
    dispose: (): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (state.requested !== undefined) process.exit(128 + (osConstants.signals[signal] ?? 0));
    state.requested = signal;
    log(`${signal}: stopping once what was indexed is saved (${signal} again stops at once)`);
    resolve();
  }
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return state;
}
