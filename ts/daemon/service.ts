/**
 * `gortex daemon install-service` / `uninstall-service` / `service-status`: the daemon as a per-user
 * service — a systemd user unit on Linux, a launchd agent on macOS. The service runs
 * `daemon start --serve-only` in the foreground with this Node and this package, so its HTTP address
 * comes from `daemon.http_addr` of the global config (a service starts without flags). The
 * environment that decides where the daemon's files are (GORTEX_HOME, GORTEX_DAEMON_SOCKET,
 * XDG_CONFIG_HOME, …) and PATH (language servers, git) are written into the service as they are now.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../support/package-root';
import { daemonPaths } from './paths';

/** The service managers gortex writes for. */
export type ServiceKind = 'systemd' | 'launchd';

/** The systemd unit name and the launchd label. */
export const SYSTEMD_UNIT = 'gortex.service';
export const LAUNCHD_LABEL = 'dev.gortex.daemon';

/** Variables copied into the service when set, so it finds the same home, socket and config. */
const CARRIED_ENV = [
  'GORTEX_HOME',
  'GORTEX_DAEMON_SOCKET',
  'GORTEX_DAEMON_HTTP_ADDR',
  'GORTEX_DAEMON_HTTP_TOKEN',
  'GORTEX_THREADS',
  'GORTEX_LSP_ENRICH',
  'GORTEX_LSP_MAX_RSS_MB',
  'XDG_CONFIG_HOME',
  'PATH',
] as const;

/** A service definition ready to write. */
export interface ServiceFile {
  kind: ServiceKind;
  /** Where it is installed. */
  path: string;
  text: string;
  /** The command the service runs. */
  command: string[];
  /** Why this installation may not last (e.g. a package in npx's cache); empty when none. */
  warnings: string[];
}

/** The service manager of this platform; throws for one gortex does not write for. */
export function serviceKind(platform: NodeJS.Platform = process.platform): ServiceKind {
  if (platform === 'linux') return 'systemd';
  if (platform === 'darwin') return 'launchd';
  throw new Error(`install-service supports Linux (systemd user units) and macOS (launchd agents), not ${platform}; run \`gortex daemon start --detach\` from your login scripts instead`);
}

/** Where the service file goes for `kind` under `env`. */
export function servicePath(kind: ServiceKind, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME ?? os.homedir();
  if (kind === 'launchd') return path.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'systemd', 'user', SYSTEMD_UNIT);
}

/** The command the service runs: this Node, this package's CLI, `daemon start --serve-only`. */
export function serviceCommand(root: string = packageRoot()): string[] {
  return [process.execPath, path.join(root, 'bin', 'run.js'), 'daemon', 'start', '--serve-only'];
}

/** Doubles `%`, systemd's specifier character, in a value it would expand. */
function systemdLiteral(text: string): string {
  return text.replace(/%/g, '%%');
}

/** Quotes one systemd ExecStart word (C-style escapes inside double quotes). */
function systemdWord(word: string): string {
  if (/^[\w@+=:,./-]+$/.test(word)) return word;
  return `"${systemdLiteral(word.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

/** Quotes an `Environment=` assignment; `%` is systemd's specifier character and is doubled. */
function systemdAssignment(name: string, value: string): string {
  return `"${`${name}=${value}`.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The variables the service carries, as they are now. */
function carriedEnv(env: NodeJS.ProcessEnv): [string, string][] {
  return CARRIED_ENV.flatMap((name) => {
    const value = env[name];
    return value === undefined || value === '' || /[\n\r\0]/.test(value) ? [] : [[name, value] as [string, string]];
  });
}

/** The service definition for this machine (nothing is written). */
export function serviceFile(options: { kind?: ServiceKind; env?: NodeJS.ProcessEnv; root?: string } = {}): ServiceFile {
  const env = options.env ?? process.env;
  const kind = options.kind ?? serviceKind();
  const root = options.root ?? packageRoot();
  const command = serviceCommand(root);
  const log = daemonPaths(env).log;
  const vars = carriedEnv(env);
  const warnings: string[] = [];
  if (root.split(path.sep).includes('_npx')) {
    warnings.push(
      `gortex runs from npx's cache (${root}), which npm may clear; the service would then fail to start. ` +
        'Install gortex for good (npm install -g gortex) and run install-service from that installation.',
    );
  }
  let text: string;
  if (kind === 'systemd') {
    text = [
      '# Written by `gortex daemon install-service`; `gortex daemon uninstall-service` removes it.',
      '[Unit]',
      'Description=gortex daemon: the code graph shared by AI coding agents',
      '',
      '[Service]',
      'Type=simple',
      `ExecStart=${command.map(systemdWord).join(' ')}`,
      `WorkingDirectory=${systemdLiteral(env.HOME ?? os.homedir())}`,
      ...vars.map(([name, value]) => `Environment=${systemdAssignment(name, value)}`),
      // `gortex daemon logs` reads the same file a detached daemon writes.
      `StandardOutput=append:${systemdLiteral(log)}`,
      `StandardError=append:${systemdLiteral(log)}`,
      'Restart=on-failure',
      'RestartSec=5',
      // SIGTERM saves what was indexed before the daemon exits.
      'KillSignal=SIGTERM',
      'TimeoutStopSec=30',
      '',
      '[Install]',
      'WantedBy=default.target',
      '',
    ].join('\n');
  } else {
    const strings = (items: string[]): string => items.map((item) => `    <string>${xmlEscape(item)}</string>`).join('\n');
    text = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<!-- Written by `gortex daemon install-service`; `gortex daemon uninstall-service` removes it. -->',
      '<plist version="1.0">',
      '<dict>',
      '  <key>Label</key>',
      `  <string>${LAUNCHD_LABEL}</string>`,
      '  <key>ProgramArguments</key>',
      '  <array>',
      strings(command),
      '  </array>',
      '  <key>WorkingDirectory</key>',
      `  <string>${xmlEscape(env.HOME ?? os.homedir())}</string>`,
      '  <key>EnvironmentVariables</key>',
      '  <dict>',
      ...vars.flatMap(([name, value]) => [`    <key>${xmlEscape(name)}</key>`, `    <string>${xmlEscape(value)}</string>`]),
      '  </dict>',
      '  <key>RunAtLoad</key>',
      '  <true/>',
      '  <key>KeepAlive</key>',
      '  <dict>',
      '    <key>SuccessfulExit</key>',
      '    <false/>',
      '  </dict>',
      '  <key>StandardOutPath</key>',
      `  <string>${xmlEscape(log)}</string>`,
      '  <key>StandardErrorPath</key>',
      `  <string>${xmlEscape(log)}</string>`,
      '</dict>',
      '</plist>',
      '',
    ].join('\n');
  }
  return { kind, path: servicePath(kind, env), text, command, warnings };
}

/** One service-manager command and how it went. */
export interface ManagerStep {
  command: string;
  ok: boolean;
  output: string;
}

/** A manager step as one line: `ran: …`, or `failed: … (first line of its output)`. */
export function formatStep(step: ManagerStep): string {
  return `${step.ok ? 'ran' : 'failed'}: ${step.command}${step.ok || step.output === '' ? '' : ` (${step.output.split('\n')[0]})`}`;
}

/** Runs a service-manager command (never throws; a missing manager is a failed step). */
function manage(argv: string[], env: NodeJS.ProcessEnv): ManagerStep {
  const run = spawnSync(argv[0]!, argv.slice(1), { env, encoding: 'utf8', timeout: 30_000 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? run.error.message : ''}`.trim();
  return { command: argv.join(' '), ok: run.status === 0, output };
}

/** The manager commands that load (`start`) or unload the service. */
function managerCommands(file: ServiceFile, action: 'load' | 'unload'): string[][] {
  if (file.kind === 'systemd') {
    return action === 'load'
      ? [
          ['systemctl', '--user', 'daemon-reload'],
          ['systemctl', '--user', 'enable', '--now', SYSTEMD_UNIT],
        ]
      : [
          ['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT],
          ['systemctl', '--user', 'daemon-reload'],
        ];
  }
  const domain = `gui/${process.getuid?.() ?? 0}`;
  return action === 'load' ? [['launchctl', 'bootstrap', domain, file.path]] : [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]];
}

/** What `installService` did. */
export interface InstallOutcome {
  file: ServiceFile;
  /** Whether a service file was there before (it is replaced). */
  replaced: boolean;
  /** The manager commands run (none with `load: false`). */
  steps: ManagerStep[];
  /** The commands to run by hand when the manager could not be reached. */
  manual: string[];
}

/**
 * Writes the service file (replacing an earlier one) and, unless `load` is false, asks the service
 * manager to start it now and at every login. A manager that cannot be reached (no user session bus,
 * a container) leaves the file written and says which commands to run.
 */
export function installService(options: { env?: NodeJS.ProcessEnv; load?: boolean; file?: ServiceFile } = {}): InstallOutcome {
  const env = options.env ?? process.env;
  const file = options.file ?? serviceFile({ env });
  const replaced = fs.existsSync(file.path);
  fs.mkdirSync(path.dirname(file.path), { recursive: true });
  fs.mkdirSync(path.dirname(daemonPaths(env).log), { recursive: true });
  const temp = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(temp, file.text, { mode: 0o644 });
  fs.renameSync(temp, file.path);
  const commands = managerCommands(file, 'load');
  if (replaced && file.kind === 'launchd') commands.unshift(managerCommands(file, 'unload')[0]!);
  const steps: ManagerStep[] = [];
  if (options.load !== false) {
    for (const argv of commands) {
      const step = manage(argv, env);
      steps.push(step);
      // launchd refuses bootout of an agent that is not loaded: that is not a failure here.
      if (!step.ok && !argv.includes('bootout')) break;
    }
  }
  const failed = options.load !== false && steps.some((s) => !s.ok && !s.command.includes('bootout'));
  return { file, replaced, steps, manual: options.load === false || failed ? commands.map((c) => c.join(' ')) : [] };
}

/** What `uninstallService` did. */
export interface UninstallOutcome {
  path: string;
  /** Whether a service file was there to remove. */
  removed: boolean;
  steps: ManagerStep[];
}

/** Stops and disables the service (best effort: the manager may be unreachable) and removes its file. */
export function uninstallService(options: { env?: NodeJS.ProcessEnv; kind?: ServiceKind; unload?: boolean } = {}): UninstallOutcome {
  const env = options.env ?? process.env;
  const kind = options.kind ?? serviceKind();
  const file = servicePath(kind, env);
  const removed = fs.existsSync(file);
  const steps: ManagerStep[] = [];
  const stub: ServiceFile = { kind, path: file, text: '', command: [], warnings: [] };
  const [unload, ...after] = managerCommands(stub, 'unload');
  if (removed && options.unload !== false) steps.push(manage(unload!, env));
  fs.rmSync(file, { force: true });
  if (removed && options.unload !== false) for (const argv of after) steps.push(manage(argv, env));
  return { path: file, removed, steps };
}

/** What `service-status` reports. */
export interface ServiceStatus {
  kind: ServiceKind;
  path: string;
  installed: boolean;
  /** The command the installed file runs (parsed back), when installed. */
  command?: string;
  /** The manager's word on it (`active`, `inactive`, `failed`, …), or why it could not be asked. */
  state: string;
}

/** Whether the service is installed and what its manager says about it. */
export function serviceStatus(options: { env?: NodeJS.ProcessEnv; kind?: ServiceKind } = {}): ServiceStatus {
  const env = options.env ?? process.env;
  const kind = options.kind ?? serviceKind();
  const file = servicePath(kind, env);
  if (!fs.existsSync(file)) return { kind, path: file, installed: false, state: 'not installed' };
  const text = fs.readFileSync(file, 'utf8');
  const command =
    kind === 'systemd'
      ? /^ExecStart=(.*)$/m.exec(text)?.[1]
      : [...(/<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1] ?? '').matchAll(/<string>(.*?)<\/string>/g)].map((m) => m[1]).join(' ');
  const probe = kind === 'systemd' ? manage(['systemctl', '--user', 'is-active', SYSTEMD_UNIT], env) : manage(['launchctl', 'print', `gui/${process.getuid?.() ?? 0}/${LAUNCHD_LABEL}`], env);
  const firstLine = probe.output.split('\n')[0] ?? '';
  let state: string;
  if (!probe.ok && /ENOENT|Failed to connect to bus|No medium found/i.test(probe.output)) state = `unknown (${firstLine})`;
  else if (kind === 'systemd') state = firstLine || 'unknown';
  else state = probe.ok ? 'loaded' : 'not loaded';
  return { kind, path: file, installed: true, ...(command ? { command } : {}), state };
}
