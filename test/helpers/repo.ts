/** Temporary repositories made from the checked-in fixtures. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** `test/fixtures` of this package. */
export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

/** Copies `test/fixtures/<rel>` into a fresh temp dir named `name` and returns its path. */
export function fixtureCopy(rel: string, name: string): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-test-'));
  const root = path.join(parent, name);
  fs.cpSync(path.join(FIXTURES, rel), root, { recursive: true });
  return root;
}

/** A fresh, empty GORTEX_HOME. */
export function tempHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-home-'));
}

/** Points GORTEX_HOME at a fresh temp home for the enclosing `describe` (call it first there), and restores it after. */
export function useTempHome(): void {
  const saved = process.env.GORTEX_HOME;
  beforeAll(() => {
    process.env.GORTEX_HOME = tempHome();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.GORTEX_HOME;
    else process.env.GORTEX_HOME = saved;
  });
}
