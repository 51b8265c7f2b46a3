import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from './helpers/cli';

const GENERATED = ['native/index.d.ts', 'native/index.js'] as const;

function git(args: readonly string[]): { status: number | null; stdout: string } {
  const result = spawnSync('git', [...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return { status: result.error ? null : result.status, stdout: result.stdout ?? '' };
}

describe('generated napi bindings (native/index.d.ts, native/index.js)', () => {
  test('exist and declare/export the Engine class', () => {
    const dts = path.join(PACKAGE_ROOT, 'native', 'index.d.ts');
    const loader = path.join(PACKAGE_ROOT, 'native', 'index.js');
    expect(fs.existsSync(dts)).toBe(true);
    expect(fs.existsSync(loader)).toBe(true);
    expect(fs.readFileSync(dts, 'utf8')).toMatch(/export declare class Engine\b/);
    expect(fs.readFileSync(loader, 'utf8')).toMatch(/module\.exports\.Engine\b/);
  });

  test('declare every Engine method ts/engine/native.ts relies on', () => {
    const dts = fs.readFileSync(path.join(PACKAGE_ROOT, 'native', 'index.d.ts'), 'utf8');
    const engine = /export declare class Engine \{([\s\S]*?)\n\}/.exec(dts)?.[1] ?? '';
    for (const method of ['indexRepo', 'cancel', 'provisional', 'updateFiles', 'status', 'repos', 'stats', 'getNode', 'fileSymbols', 'edges']) {
      expect(engine).toMatch(new RegExp(`^\\s+${method}\\(`, 'm'));
    }
    expect(engine).toMatch(/^\s+constructor\(/m);
  });

  test('the build left the committed copies unchanged', () => {
    const insideCheckout = git(['rev-parse', '--is-inside-work-tree']).stdout.trim() === 'true';
    const tracked = GENERATED.filter((file) => git(['cat-file', '-e', `HEAD:${file}`]).status === 0);
    if (!insideCheckout || tracked.length === 0) {
      // Not a git checkout, or not committed yet: the existence test above is the check.
      expect(tracked).toEqual([]);
      return;
    }
    const diff = git(['diff', '--quiet', 'HEAD', '--', ...GENERATED]);
    if (diff.status !== 0) {
      const names = git(['diff', '--name-only', 'HEAD', '--', ...GENERATED]).stdout.trim();
      throw new Error(
        `\`npm run build:native\` changed the committed napi bindings (${names || GENERATED.join(', ')}). ` +
          'The Rust API changed: review the diff and commit the regenerated files.',
      );
    }
    expect(diff.status).toBe(0);
  });
});
