/** The base of every gortex command: turns thrown errors into one-line messages and exit codes. */
import { Command } from '@oclif/core';

/** Exit codes: 1 = failure, 2 = bad input (path, flag), 130 = cancelled by Ctrl-C. */
function exitCodeFor(error: Error): number {
  if (error.name === 'UsageError') return 2;
  if (error.name === 'IndexCancelledError') return 130;
  return 1;
}

/** Shared error handling; commands import heavy modules lazily inside `run()`. */
export abstract class GortexCommand extends Command {
  protected override async catch(error: Error & { oclif?: unknown }): Promise<unknown> {
    // oclif's own errors (bad flags, this.error, this.exit) already carry their exit code.
    if (error.oclif !== undefined) return super.catch(error);
    if (process.env.DEBUG && error.stack) process.stderr.write(`${error.stack}\n`);
    return this.error(error.message, { exit: exitCodeFor(error) });
  }
}
