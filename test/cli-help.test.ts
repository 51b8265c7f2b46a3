import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from './helpers/cli';

describe('gortex CLI shell', () => {
  test('--help lists the index and status commands', () => {
    const result = runCli(['--help']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\s+index\s+Index a repository/m);
    expect(result.stdout).toMatch(/^\s+status\s+Show what is indexed/m);
  });

  test('index --help documents its flags', () => {
    const result = runCli(['index', '--help']);
    expect(result.status).toBe(0);
    for (const flag of ['--json', '--force', '--name', '--threads']) expect(result.stdout).toContain(flag);
  });

  test.each([['index'], ['status']])('%s on a missing path names it, exits 2, prints no stack', (command) => {
    const missing = path.join(os.tmpdir(), `gortex-missing-${process.pid}`, 'nope');
    const result = runCli([command, missing]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Path does not exist: ${missing}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('--threads rejects zero', () => {
    const result = runCli(['index', '.', '--threads', '0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/threads/i);
  });
});
