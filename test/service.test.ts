/**
 * `gortex daemon install-service` / `service-status` / `uninstall-service`: the systemd user unit is
 * written where systemd looks, passes `systemd-analyze verify`, and the command it runs starts a
 * daemon that answers; the launchd agent is a valid property list running the same command.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { controlRequest } from '../ts/daemon/client';
import { daemonPaths } from '../ts/daemon/paths';
import { serviceFile, servicePath } from '../ts/daemon/service';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { until } from './helpers/mcp';

/** A private HOME, gortex home and socket for one service. */
function serviceEnv(): Record<string, string> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-svc-home-'));
  const socket = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gx-')), 'd.sock');
  return { HOME: home, GORTEX_HOME: path.join(home, 'gortex home'), GORTEX_DAEMON_SOCKET: socket, GORTEX_THREADS: '2', PATH: process.env.PATH ?? '/usr/bin:/bin' };
}

/** The values of the unit's `Environment=` lines (one quoted assignment per line, as we write them). */
function unitEnvironment(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^Environment="(.*)"$/gm)) {
    const assignment = m[1]!.replace(/%%/g, '%').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    const at = assignment.indexOf('=');
    out[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  return out;
}

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('the daemon as a user service', () => {
  test('the systemd unit runs this node and package, carries the environment and passes systemd-analyze verify', () => {
    expect(hasSystemdAnalyze).toBe(true);
    const env: Record<string, string> = { ...serviceEnv(), GORTEX_HOME: '/tmp/with "quotes" and 100%' };
    const unit = serviceFile({ kind: 'systemd', env, root: PACKAGE_ROOT });
    expect(unit.path).toBe(path.join(env.HOME, '.config', 'systemd', 'user', 'gortex.service'));
    expect(unit.command).toEqual([process.execPath, path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'daemon', 'start', '--serve-only']);
    expect(unit.text).toContain(`ExecStart=${process.execPath} ${path.join(PACKAGE_ROOT, 'bin', 'run.js')} daemon start --serve-only`);
    expect(unitEnvironment(unit.text)).toEqual({ GORTEX_HOME: env.GORTEX_HOME, GORTEX_DAEMON_SOCKET: env.GORTEX_DAEMON_SOCKET, GORTEX_THREADS: '2', PATH: env.PATH });
    expect(unit.text).toContain(`StandardError=append:${daemonPaths(env).log.replace(/%/g, '%%')}`);
    expect(unit.warnings).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-unit-'));
    fs.writeFileSync(path.join(dir, 'gortex.service'), unit.text);
    const verify = spawnSync('systemd-analyze', ['verify', path.join(dir, 'gortex.service')], { encoding: 'utf8' });
    expect(verify.stderr).toBe('');
    expect(verify.status).toBe(0);
    // XDG_CONFIG_HOME moves the unit as it moves systemd's user configuration.
    expect(servicePath('systemd', { HOME: env.HOME, XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/systemd/user/gortex.service');
  });

  test('a gortex run from npx\'s cache is warned about', () => {
    const unit = serviceFile({ kind: 'systemd', env: serviceEnv(), root: '/home/u/.npm/_npx/0123abcd/node_modules/gortex' });
    expect(unit.warnings.join('\n')).toContain('npm install -g gortex');
  });

  test('the command the unit runs, with the unit\'s environment, starts a daemon that answers', async () => {
    const env = serviceEnv();
    const unit = serviceFile({ kind: 'systemd', env, root: PACKAGE_ROOT });
    const unitEnv = unitEnvironment(unit.text);
    const child = spawn(unit.command[0]!, unit.command.slice(1), { cwd: env.HOME, env: { HOME: env.HOME, ...unitEnv }, stdio: 'ignore' });
    try {
      const paths = daemonPaths(unitEnv);
      const status = await until('the service daemon to answer', async () => {
        try {
          const answer = await controlRequest(paths, { kind: 'status' });
          return answer.ok ? answer : undefined;
        } catch {
          return undefined;
        }
      });
      expect(status.ok).toBe(true);
      // --serve-only: the service tracks nothing from its working directory (the home).
      expect((status.result as { repos: unknown[] }).repos).toEqual([]);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test('install-service writes the unit, says what to run when systemd cannot be reached; status and uninstall follow', () => {
    const env = serviceEnv();
    const unitPath = path.join(env.HOME, '.config', 'systemd', 'user', 'gortex.service');
    const cliEnv = { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', XDG_RUNTIME_DIR: '' };
    const printed = runCli(['daemon', 'install-service', '--print'], { env: cliEnv });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain(`# ${unitPath}`);
    expect(fs.existsSync(unitPath)).toBe(false);

    const install = runCli(['daemon', 'install-service'], { env: cliEnv });
    expect(fs.readFileSync(unitPath, 'utf8')).toContain('ExecStart=');
    expect(install.stdout).toContain(`Wrote ${unitPath}`);
    // This machine has no user service manager to reach: the commands to run are printed, exit 1.
    expect(install.status).toBe(1);
    expect(install.stdout).toContain('systemctl --user enable --now gortex.service');

    const again = runCli(['daemon', 'install-service', '--no-start'], { env: cliEnv });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`Replaced ${unitPath}`);

    const status = runCli(['daemon', 'service-status', '--json'], { env: cliEnv });
    expect(status.status).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed).toMatchObject({ kind: 'systemd', installed: true, path: unitPath });
    expect(parsed.command).toContain('daemon start --serve-only');

    const removed = runCli(['daemon', 'uninstall-service'], { env: cliEnv });
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain(`Removed ${unitPath}`);
    expect(fs.existsSync(unitPath)).toBe(false);
    const none = runCli(['daemon', 'service-status'], { env: cliEnv });
    expect(none.status).toBe(1);
    expect(none.stdout).toContain('not installed');
    expect(runCli(['daemon', 'uninstall-service'], { env: cliEnv }).stdout).toContain('No service installed');
  });

  test('the launchd agent is a valid property list running the same command', () => {
    const env = serviceEnv();
    const agent = serviceFile({ kind: 'launchd', env: { ...env, GORTEX_HOME: '/tmp/a & <b>' }, root: PACKAGE_ROOT });
    expect(agent.path).toBe(path.join(env.HOME, 'Library', 'LaunchAgents', 'dev.gortex.daemon.plist'));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-plist-')), 'agent.plist');
    fs.writeFileSync(file, agent.text);
    const read = spawnSync('python3', ['-c', 'import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))', file], { encoding: 'utf8' });
    expect(read.stderr).toBe('');
    const plist = JSON.parse(read.stdout);
    expect(plist.Label).toBe('dev.gortex.daemon');
    expect(plist.ProgramArguments).toEqual(agent.command);
    expect(plist.EnvironmentVariables.GORTEX_HOME).toBe('/tmp/a & <b>');
    expect(plist.RunAtLoad).toBe(true);
    expect(plist.KeepAlive).toEqual({ SuccessfulExit: false });
  });
});
