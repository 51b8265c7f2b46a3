import { Args } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';
import { UsageError } from '../../../support/usage-error';

/** `gortex memory forget`: delete memories by id. */
export default class MemoryForgetCommand extends QueryCommand {
  static override summary = 'Delete memories or notes by id, for good.';
  static override examples = ['<%= config.bin %> memory forget 12', '<%= config.bin %> memory forget 12 13 14'];
  static override strict = false;
  static override args = { id: Args.string({ description: 'Memory ids (from gortex memory list)', required: true }) };
  static override flags = { ...queryBaseFlags };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryForgetCommand);
    const ids = (argv as string[]).map((a) => {
      const n = Number(a.replace(/^#/, ''));
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`memory ids are positive whole numbers (see gortex memory list), got ${JSON.stringify(a)}`);
      return n;
    });
    const { renderForgotten } = await import('../../render-memory');
    await this.runTool('forget_memory', { ids }, flags, renderForgotten);
  }
}
