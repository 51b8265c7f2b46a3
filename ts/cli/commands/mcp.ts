import { constants as osConstants } from 'node:os';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import type { McpServerOptions } from '../../mcp/server';
import { UsageError } from '../../support/usage-error';
import { SERVER_TOKEN_ENV } from '../../http/security';

/** The embedded listener's port when `--port` is not given. */
const DEFAULT_LISTENER_PORT = 8765;

/** `gortex mcp`: MCP over stdio, through the shared daemon (started on demand) or embedded. */
export default class McpCommand extends GortexCommand {
  static override summary = 'Serve the code graph to an AI agent over MCP (stdio).';
  static override description =
    'Connects stdin/stdout to the gortex daemon, starting one if none runs (exactly one, however many clients ' +
    'start at once), so every editor and agent shares one warm, watched graph of the repository containing the ' +
    'working directory (or --repo). It serves embedded, in this process, with --embedded, when ' +
    'GORTEX_AUTOSTART=0 and no daemon runs, or when no daemon can start (it says so on stderr). Embedded, the ' +
    'snapshot makes opening quick and files are watched while the session runs. With --server the embedded ' +
    'server also answers HTTP — the daemon\'s /v1 API, /mcp and /ui — on --bind:--port, once mcp.allow_embedded: true ' +
    'is set in the user-level config; it keeps serving after stdin closes, until SIGTERM or SIGINT. Logs go to stderr.';
  static override examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --repo ../service',
    '<%= config.bin %> mcp --embedded --no-watch',
    '<%= config.bin %> mcp --index ../service --server --port 8765',
  ];

  static override flags = {
    repo: Flags.string({ description: 'A folder inside the repository to serve (default: the current directory)', exclusive: ['index'] }),
    index: Flags.string({ description: 'The repository to index and serve (as --repo)', exclusive: ['repo'] }),
    embedded: Flags.boolean({ description: 'Serve in this process instead of through the daemon' }),
    watch: Flags.boolean({ description: 'Embedded: re-index files as they change on disk (the daemon always watches)', default: true, allowNo: true }),
    tools: Flags.string({
      description:
        'Tool surface: a preset (core, agent, full, readonly, edit, nav, localization), optionally "preset,+tool,-tool" ' +
        'or ":hide"/":defer", or a bare list of tool names. GORTEX_TOOLS overrides it; it overrides mcp.tools of ' +
        '.gortex.yaml and the global config. Default: core (defer), or the compact surface for a client that names itself.',
    }),
    'tools-mode': Flags.string({ description: 'defer or hide: the mode of the chosen surface (GORTEX_TOOLS_MODE overrides it)', options: ['defer', 'hide'] }),
    server: Flags.boolean({ description: 'Serve embedded and also answer HTTP (/v1, /mcp, /ui) on --bind:--port; needs mcp.allow_embedded: true in the user-level config' }),
    port: Flags.integer({ description: `With --server: the TCP port (default ${DEFAULT_LISTENER_PORT}; 0 picks a free one)`, min: 0, max: 65535, dependsOn: ['server'] }),
    bind: Flags.string({ description: 'With --server: the address to listen on (default 127.0.0.1; non-loopback needs a token)', dependsOn: ['server'] }),
    'auth-token': Flags.string({ description: `With --server: require "Authorization: Bearer TOKEN" (else ${SERVER_TOKEN_ENV} when set)`, dependsOn: ['server'] }),
    'cors-origin': Flags.string({ description: 'With --server: the one browser Origin allowed to call the API, sent CORS headers ("*" grants no access)', dependsOn: ['server'] }),
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
    const repoFlag = flags.index ?? flags.repo;
    let listener: ListenerPlan | undefined;
    let chosen: { spec: string; source: string } | undefined;
    if (flags.tools !== undefined) options.tools = flags.tools;
    if (flags['tools-mode'] !== undefined) options.toolsMode = flags['tools-mode'];
    try {
      const config = loadConfig(resolveRepoRoot(repoFlag));
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
      if (flags.server) listener = await planListener(flags, config.allowEmbedded);
    } catch (error) {
      if (error instanceof PresetError || error instanceof ServerConfigError || error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    if (!flags.embedded && !listener) {
      const { proxyToDaemon } = await import('../mcp-proxy');
      const root = resolveRepoRoot(repoFlag);
      const outcome = await proxyToDaemon(root, chosen?.spec, log);
      if (outcome === 'served') return;
    }
    const stop = stopSignals(log);
    const { openEmbedded } = await import('../../workspace/embedded');
    const repo = await openEmbedded(repoFlag, { watch: flags.watch, log });
    if (stop.requested === undefined) {
      const { serveOverStreams } = await import('../../mcp/streams');
      const { embeddedWorkspace } = await import('../../workspace/embedded');
      const { embeddedPushSources } = await import('../../workspace/push-sources');
      let http: { url: string; close(): Promise<void> } | undefined;
      if (listener) {
        const { repoHost } = await import('../../http/host');
        const { startHttpServer } = await import('../../http/app');
        try {
          http = await startHttpServer(repoHost(repo, { watching: flags.watch, mcp: options }), { ...listener, mcp: options });
        } catch (error) {
          repo.close();
          stop.dispose();
          throw new UsageError(`--server: ${(error as Error).message}`);
        }
        log(`REST listener on ${http.url} (/v1, /mcp, /ui)${listener.authToken ? ', token required' : ''}`);
      }
      const server = createMcpServer(repo, { ...options, workspace: embeddedWorkspace(repo), push: embeddedPushSources(repo) });
      const { closed } = await serveOverStreams(server);
      log(`serving ${(await repo.context()).root}`);
      await Promise.race([closed, stop.signalled]);
      await server.close();
      if (http) {
        if (stop.requested === undefined) {
          log(`stdin closed: the MCP session ended; ${http.url} keeps serving until SIGTERM or SIGINT`);
          await stop.signalled;
        }
        await http.close();
      }
    }
    // A refresh under way (or one the watcher just asked for) finishes, then the deferred snapshot is written.
    await repo.context();
    repo.close();
    stop.dispose();
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(0);
  }
}

/** What `--server` asks for, checked before anything is indexed. */
interface ListenerPlan {
  addr: string;
  authToken?: string;
  tokenSource: { flag: string; env: string };
  allowedOrigins: string[];
  corsOrigin?: string;
}

/**
 * The embedded REST listener's settings: refused unless the user-level config allows an embedded
 * server; the token is `--auth-token`, else `GORTEX_SERVER_TOKEN` (read per request); `--cors-origin`
 * both allows that one origin and sends it CORS headers, while `*` sends headers to no one it allows
 * (browsers stay refused); a non-loopback bind needs a token.
 */
async function planListener(
  flags: { port?: number; bind?: string; 'auth-token'?: string; 'cors-origin'?: string },
  allowed: boolean,
): Promise<ListenerPlan> {
  const port = flags.port ?? DEFAULT_LISTENER_PORT;
  const { globalConfigPath } = await import('../../config/config');
  if (!allowed) {
    throw new UsageError(
      `--server runs an embedded server with its own HTTP listener, which the user-level config must allow: ` +
        `add "mcp:\n  allow_embedded: true" to ${globalConfigPath()} (a repository's .gortex.yaml cannot), or use the daemon: gortex daemon start --http-addr 127.0.0.1:${port}`,
    );
  }
  const { checkBind, currentToken, normalizeOrigin } = await import('../../http/security');
  const tokenSource = { flag: '--auth-token', env: SERVER_TOKEN_ENV };
  const bind = (flags.bind ?? '127.0.0.1').trim().replace(/^\[(.*)\]$/, '$1');
  if (bind === '') throw new UsageError('--bind is empty; give an address such as 127.0.0.1, ::1 or 0.0.0.0');
  try {
    checkBind(bind, currentToken(flags['auth-token'], process.env, tokenSource), tokenSource);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const plan: ListenerPlan = { addr: `${bind.includes(':') ? `[${bind}]` : bind}:${port}`, tokenSource, allowedOrigins: [] };
  if (flags['auth-token'] !== undefined) {
    if (flags['auth-token'].trim() === '') throw new UsageError(`--auth-token is empty; give a token, or leave it out (${SERVER_TOKEN_ENV} is read when set)`);
    plan.authToken = flags['auth-token'];
  }
  const cors = flags['cors-origin']?.trim();
  if (cors !== undefined && cors !== '') {
    plan.corsOrigin = cors;
    if (cors !== '*') {
      let origin: URL;
      try {
        origin = new URL(cors);
      } catch {
        throw new UsageError(`--cors-origin ${JSON.stringify(cors)} is not an origin; write it as scheme://host[:port], e.g. https://ui.example`);
      }
      if (origin.origin === 'null' || normalizeOrigin(cors) !== origin.origin) {
        throw new UsageError(`--cors-origin ${JSON.stringify(cors)} is not an origin; write it as scheme://host[:port] with no path, e.g. ${origin.origin}`);
      }
      plan.allowedOrigins = [origin.origin];
    }
  }
  return plan;
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
