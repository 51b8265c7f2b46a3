import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PACKAGE_ROOT, runCli } from './helpers/cli';

type NativeModule = typeof import('../ts/engine/native');

/** Loads a fresh copy of native.ts (it caches the binding) with GORTEX_NATIVE_PATH set. */
function loadWithOverride(loaderPath: string): () => unknown {
  let native!: NativeModule;
  jest.isolateModules(() => {
    native = require('../ts/engine/native') as NativeModule;
  });
  return () => {
    const previous = process.env.GORTEX_NATIVE_PATH;
    process.env.GORTEX_NATIVE_PATH = loaderPath;
    try {
      return native.loadNative();
    } finally {
      if (previous === undefined) delete process.env.GORTEX_NATIVE_PATH;
      else process.env.GORTEX_NATIVE_PATH = previous;
    }
  };
}

/** The error `fn` throws; fails the test if it does not throw. */
function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected the loader to throw, but it loaded');
}

function expectBuildGuidance(message: string): void {
  expect(message).toContain('npm run build:native');
  expect(message).toContain('Rust stable');
  expect(message).toContain('C compiler');
  expect(message).toContain(PACKAGE_ROOT);
}

describe('native addon loader errors', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-loader-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('a missing loader path gives build-from-source guidance and the cause', () => {
    const missing = path.join(tmp, 'nonexistent', 'index.js');
    const error = thrownBy(loadWithOverride(missing));
    expect(error.name).toBe('NativeLoadError');
    expectBuildGuidance(error.message);
    expect(error.message).toContain(missing);
    // The cause comes from another realm under Jest, so check its shape rather than instanceof.
    expect(String((error.cause as { message?: unknown } | undefined)?.message)).toContain('Cannot find module');
  });

  test('the generated napi loader with no binary beside it gives the same guidance', () => {
    const generated = path.join(PACKAGE_ROOT, 'native', 'index.js');
    expect(fs.existsSync(generated)).toBe(true);
    const copy = path.join(tmp, 'index.js');
    fs.copyFileSync(generated, copy);
    const error = thrownBy(loadWithOverride(copy));
    expect(error.name).toBe('NativeLoadError');
    expectBuildGuidance(error.message);
    expect(error.message).toContain('Cannot find native binding');
  });

  test('a loader without the Engine class is reported as stale', () => {
    const stale = path.join(tmp, 'stale.js');
    fs.writeFileSync(stale, 'module.exports = { somethingElse: 1 };\n');
    const error = thrownBy(loadWithOverride(stale));
    expect(error.message).toContain('does not export the Engine class');
    expectBuildGuidance(error.message);
  });

  test('the CLI prints the guidance as a one-line error, without a stack trace', () => {
    const result = runCli(['status', PACKAGE_ROOT], {
      env: { GORTEX_NATIVE_PATH: path.join(tmp, 'nonexistent.node') },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expectBuildGuidance(result.stderr.replace(/\s*\n\s*›\s*/g, ' '));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('an installed package without this platform\'s addon names the package to install, or says none is published', () => {
    const { buildFromSourceHint, platformPackageName } = require('../ts/engine/native') as NativeModule;
    const installed = path.join(tmp, 'gortex');
    fs.mkdirSync(path.join(installed, 'native'), { recursive: true });
    const manifest = (optional: string[]): void =>
      fs.writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ name: 'gortex', version: '9.8.7', optionalDependencies: Object.fromEntries(optional.map((n) => [n, '9.8.7'])) }));
    manifest([platformPackageName(), 'gortex-other-platform']);
    expect(buildFromSourceHint(installed)).toContain(`npm install ${platformPackageName()}@9.8.7`);
    manifest(['gortex-other-platform']);
    const none = buildFromSourceHint(installed);
    expect(none).toContain(`no prebuilt addon for this platform (${platformPackageName()}; published: gortex-other-platform)`);
    expect(none).toContain('Rust stable');
    expect(platformPackageName('linux', 'arm64', true)).toBe('gortex-linux-arm64-musl');
    expect(platformPackageName('win32', 'x64', false)).toBe('gortex-win32-x64-msvc');
    expect(platformPackageName('darwin', 'arm64', false)).toBe('gortex-darwin-arm64');
  });
});
