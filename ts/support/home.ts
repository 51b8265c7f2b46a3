/** The gortex home folder, where every process of the machine keeps its state. */
import * as os from 'node:os';
import * as path from 'node:path';

/** The gortex home: `GORTEX_HOME`, else `~/.gortex`. */
export function gortexHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.GORTEX_HOME?.trim();
  return home ? path.resolve(home) : path.join(os.homedir(), '.gortex');
}
