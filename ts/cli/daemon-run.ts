/** Shared pieces of the `gortex daemon …`, `track`, `untrack` and `repos` commands. */
import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { CliUsageError } from './repo-root';

/** Flags `daemon start` and `daemon restart` share. */
export const daemonStartFlags = {
  // An autostarted daemon serves whatever its clients ask for, not the folder it was spawned from.
  autostarted: Flags.boolean({ hidden: true, description: 'Started by a client: do not track the working directory' }),
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
  const { parseDuration } = await import('../mcp/server');
  try {
    return parseDuration(text, 'GORTEX_RECONCILE_INTERVAL');
  } catch (error) {
    throw new CliUsageError((error as Error).message);
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
export async function runDaemonForeground(flags: { tools?: string; 'tools-mode'?: string; autostarted?: boolean }): Promise<void> {
  const { daemonPaths } = await import('../daemon/paths');
  const { Daemon, DaemonRunningError } = await import('../daemon/daemon');
  const paths = daemonPaths();
  rotateLog(paths.log);
  const reconcileMs = await reconcileInterval();
  if (flags.tools !== undefined) {
    const { resolveSurface, PresetError } = await import('../tools/presets');
    const { ALL_TOOLS } = await import('../tools/index');
    const { withMode } = await import('../mcp/server');
    try {
      resolveSurface(withMode(flags.tools, flags['tools-mode'])!, ALL_TOOLS, 'check');
    } catch (error) {
      if (error instanceof PresetError) throw new CliUsageError(`--tools: ${error.message}`);
      throw error;
    }
  }
  const daemon = new Daemon({
    paths,
    log: daemonLog,
    ...(flags.autostarted ? {} : { trackCwd: process.cwd() }),
    ...(reconcileMs !== undefined ? { reconcileMs } : {}),
    ...(flags.tools !== undefined ? { tools: flags.tools } : {}),
    ...(flags['tools-mode'] !== undefined ? { toolsMode: flags['tools-mode'] } : {}),
  });
  try {
    await daemon.start();
  } catch (error) {
    if (error instanceof DaemonRunningError) throw new CliUsageError(error.message);
    throw error;
  }
  const onSignal = (signal: NodeJS.Signals): void => void daemon.shutdown(signal);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await daemon.stopped;
  // Native worker threads and watchers must not keep a stopped daemon alive.
  process.exit(0);
}
