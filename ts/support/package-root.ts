/** Locating this package's own files (fixtures, benches, package.json) from compiled or source code. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The nearest ancestor of this module holding gortex's package.json. */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'gortex') return dir;
      } catch {
        /* not ours; keep walking up */
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find gortex's package.json above ${from}`);
  }
}

/** The package version. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
