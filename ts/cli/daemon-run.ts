/** Shared pieces of the `gortex daemon …`, `track`, `untrack` and `repos` commands. */
import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { UsageError } from '../support/usage-error';

/** Flags `daemon start` and `daemon restart` share. */
export const daemonStartFlags = {
  // An autostarted or restarted daemon serves the recorded repositories and its clients' folders, not the folder it was spawned from.
  'serve-only': Flags.boolean({ hidden: true, description: 'Do not track the working directory (autostart, restart)' }),
  'http-addr': Flags.string({
    description: 'Also serve HTTP (/v1/* and MCP Streamable HTTP /mcp) on host:port; GORTEX_DAEMON_HTTP_ADDR and daemon.http_addr of the global config are the fallbacks',
  }),
  'http-auth-token': Flags.string({ description: 'Require "Authorization: Bearer TOKEN" on /v1 and /mcp (else GORTEX_DAEMON_HTTP_TOKEN); required for a non-localhost address' }),
  'http-allowed-origin': Flags.string({ description: 'A browser Origin allowed to call the HTTP API (repeatable; every other Origin is refused)', multiple: true }),
  'cors-origin': Flags.string({ description: 'Send CORS headers to this allowed Origin ("*": to every allowed one; never grants access by itself)' }),
  'http-session-redis': Flags.string({ description: 'Keep /mcp sessions in Redis (redis://host:port/db) so replicas share them; GORTEX_MCP_SESSION_REDIS_URL is the fallback' }),
  tools: Flags.string({ description: 'Default tool surface for MCP sessions whose client names none (a preset or spec, as for gortex mcp --tools)' }),
  'tools-mode': Flags.string({ description: 'defer or hide: the mode of that default surface', options: ['defer', 'hide'] }),
};

/** The daemon's log line: ISO time, then the message. */
export function daemonLog(message: string): void {
  process.stderr.write(`${new Date().toISOString()} ${message}\n`);
}

/** Largest log kept before it is rotated to `daemon.log.1` at start. */
const MAX_LOG_BYTES = 16 * 1024 * 1024;

/** Rotates the log when it has grown past the cap (the previous one is kept as `.1`). */
export function rotateLog(logFile: string): void {
  try {
    if (fs.statSync(logFile).size > MAX_LOG_BYTES) fs.renameSync(logFile, `${logFile}.1`);
  } catch {
    /* no log yet */
  }
}

/** `GORTEX_RECONCILE_INTERVAL` as milliseconds (default 1 h; `off` disables). */
export async function reconcileInterval(): Promise<number | undefined> {
  const text = process.env.GORTEX_RECONCILE_INTERVAL;
  if (text === undefined) return 60 * 60_000;
  const { parseDuration } = await import('../calls/limits');
  try {
    return parseDuration(text, 'GORTEX_RECONCILE_INTERVAL');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The start flags as CLI arguments again (for a detached child or a restart). */
export function startArgs(flags: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(flags)) {
    if (name === 'detach' || value === undefined || value === false) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === true) args.push(`--${name}`);
      else args.push(`--${name}`, String(v));
    }
  }
  return args;
}

/**
 * Runs a daemon in this process until it is stopped (a shutdown request or SIGTERM/SIGINT), then
 * exits. Refuses when another daemon answers on the socket.
 */
export async function runDaemonForeground(flags: {
  tools?: string;
  'tools-mode'?: string;
  'serve-only'?: boolean;
  'http-addr'?: string;
  'http-auth-token'?: string;
  'http-allowed-origin'?: string[];
  'cors-origin'?: string;
  'http-session-redis'?: string;
}): Promise<void> {
  const { daemonPaths } = await import('../daemon/paths');
  const { Daemon, DaemonRunningError } = await import('../daemon/daemon');
  const paths = daemonPaths();
  rotateLog(paths.log);
  const reconcileMs = await reconcileInterval();
  if (flags.tools !== undefined) {
    const { PresetError } = await import('../tools/presets');
    const { resolveSpec, withMode } = await import('../calls/session');
    try {
      resolveSpec(withMode(flags.tools, flags['tools-mode'])!, 'check');
    } catch (error) {
      if (error instanceof PresetError) throw new UsageError(`--tools: ${error.message}`);
      throw error;
    }
  }
  const startHttp = await httpStarter(flags);
  const daemon = new Daemon({
    paths,
    ...(startHttp ? { startHttp } : {}),
    log: daemonLog,
    ...(flags['serve-only'] ? {} : { trackCwd: process.cwd() }),
    ...(reconcileMs !== undefined ? { reconcileMs } : {}),
    ...(flags.tools !== undefined ? { tools: flags.tools } : {}),
    ...(flags['tools-mode'] !== undefined ? { toolsMode: flags['tools-mode'] } : {}),
  });
  try {
    await daemon.start();
  } catch (error) {
    if (error instanceof DaemonRunningError || (error as Error).name === 'RosterError') throw new UsageError((error as Error).message);
    // A half-started daemon (HTTP refused to bind) must not leave its socket behind.
    await daemon.shutdown(`start failed: ${(error as Error).message}`);
    throw error;
  }
  const onSignal = (signal: NodeJS.Signals): void => void daemon.shutdown(signal);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await daemon.stopped;
  // Native worker threads and watchers must not keep a stopped daemon alive.
  process.exit(0);
}

/**
 * The HTTP surface the flags ask for (flag > `GORTEX_DAEMON_HTTP_ADDR` > `daemon.http_addr`), checked
 * now so a bad address or a non-localhost bind without a token fails before the daemon starts.
 */
async function httpStarter(flags: {
  'http-addr'?: string;
  'http-auth-token'?: string;
  'http-allowed-origin'?: string[];
  'cors-origin'?: string;
  'http-session-redis'?: string;
}): Promise<((daemon: import('../daemon/daemon').Daemon) => Promise<{ url: string; close(): Promise<void> }>) | undefined> {
  let addr = flags['http-addr'] ?? (process.env.GORTEX_DAEMON_HTTP_ADDR?.trim() || undefined);
  if (addr === undefined) {
    const { loadConfig, ConfigError } = await import('../config/config');
    try {
      addr = loadConfig(undefined).daemonHttpAddr;
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (addr === undefined) {
    for (const flag of ['http-auth-token', 'http-allowed-origin', 'cors-origin', 'http-session-redis'] as const) {
      if (flags[flag] !== undefined) throw new UsageError(`--${flag} needs --http-addr (or GORTEX_DAEMON_HTTP_ADDR, or daemon.http_addr in the global config)`);
    }
    return undefined;
  }
  const { parseAddr } = await import('../http/app');
  const { checkBind, currentToken } = await import('../http/security');
  const { sessionIdleTtl } = await import('../http/streamable');
  try {
    const { host } = parseAddr(addr);
    checkBind(host === '' ? '0.0.0.0' : host, currentToken(flags['http-auth-token']));
    sessionIdleTtl(undefined);
  } catch (error) {
    throw new UsageError(`--http-addr ${addr}: ${(error as Error).message}`);
  }
  const redisUrl = flags['http-session-redis'] ?? (process.env.GORTEX_MCP_SESSION_REDIS_URL?.trim() || undefined);
  if (redisUrl !== undefined) {
    const { parseRedisUrl } = await import('../http/resp');
    try {
      parseRedisUrl(redisUrl);
    } catch (error) {
      throw new UsageError(`--http-session-redis: ${(error as Error).message}`);
    }
  }
  return async (daemon) => {
    const { startHttpServer } = await import('../http/app');
    const { daemonHttpHost } = await import('../daemon/http-host');
    const { RedisSessionStore } = await import('../http/session-state');
    const store = redisUrl !== undefined ? new RedisSessionStore(redisUrl) : undefined;
    const server = await startHttpServer(daemonHttpHost(daemon, () => daemon.defaultRepo()), {
      addr,
      allowedOrigins: flags['http-allowed-origin'] ?? [],
      ...(flags['http-auth-token'] !== undefined ? { authToken: flags['http-auth-token'] } : {}),
      ...(flags['cors-origin'] !== undefined ? { corsOrigin: flags['cors-origin'] } : {}),
      ...(store ? { sessionStore: store } : {}),
    });
    return {
      url: server.url,
      close: async () => {
        await server.close();
        await store?.close();
      },
    };
  };
}
