import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex daemon logs`: the tail of the daemon's log, optionally followed. */
export default class DaemonLogsCommand extends GortexCommand {
  static override summary = "Print the daemon's log.";
  static override description = 'Prints the last lines of daemon.log in the gortex home; --follow keeps printing what is appended.';
  static override examples = ['<%= config.bin %> daemon logs -n 200', '<%= config.bin %> daemon logs --follow'];

  static override flags = {
    lines: Flags.integer({ char: 'n', description: 'How many lines', default: 50, min: 1 }),
    follow: Flags.boolean({ char: 'f', description: 'Keep printing new lines until interrupted' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DaemonLogsCommand);
    const { daemonPaths } = await import('../../../daemon/paths');
    const { logTail } = await import('../../../daemon/client');
    const { UsageError } = await import('../../../support/usage-error');
    const { log } = daemonPaths();
    if (!fs.existsSync(log)) throw new UsageError(`no daemon log at ${log} yet (a detached or autostarted daemon writes one)`);
    const tail = logTail(log, flags.lines);
    if (tail) this.log(tail);
    if (!flags.follow) return;
    let offset = fs.statSync(log).size;
    await new Promise<void>((resolve) => {
      fs.watchFile(log, { interval: 250 }, (current) => {
        // A rotated or truncated log starts over.
        if (current.size < offset) offset = 0;
        if (current.size === offset) return;
        const fd = fs.openSync(log, 'r');
        const chunk = Buffer.alloc(current.size - offset);
        fs.readSync(fd, chunk, 0, chunk.length, offset);
        fs.closeSync(fd);
        offset = current.size;
        process.stdout.write(chunk);
      });
      process.once('SIGINT', () => {
        fs.unwatchFile(log);
        resolve();
      });
    });
  }
}
