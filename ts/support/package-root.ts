/** Locating this package's own files (fixtures, benches, package.json) from compiled or source code. */
import * as fs from 'node:fs';
import * as path from 'node:path';

let cachedRoot: string | undefined;

/** The nearest ancestor of `from` (default: this module) holding gortex's package.json. */
export function packageRoot(from?: string): string {
  if (from === undefined && cachedRoot !== undefined) return cachedRoot;
  const start = from ?? __dirname;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'gortex') {
          if (from === undefined) cachedRoot = dir;
          return dir;
        }
      } catch {
        /* not ours; keep walking up */
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`gortex: cannot find the gortex package root (a package.json named gortex) above ${start}`);
  }
}

/** The package version. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
