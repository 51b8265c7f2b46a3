/** Loading the server roster for the `gortex daemon server …` commands. */
import type { RosterServer } from '../daemon/roster';

/** The roster and its file; a broken file is a usage error naming it. */
export async function loadRosterOrFail(): Promise<{ servers: RosterServer[]; file: string }> {
  const { daemonPaths } = await import('../daemon/paths');
  const { readRoster, rosterFile, RosterError } = await import('../daemon/roster');
  const { UsageError } = await import('../support/usage-error');
  const file = rosterFile(daemonPaths().home);
  try {
    return { servers: readRoster(file), file };
  } catch (error) {
    if (error instanceof RosterError) throw new UsageError(error.message);
    throw error;
  }
}
