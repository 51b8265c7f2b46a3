import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex memory list`: the repository's memories, newest first. */
export default class MemoryListCommand extends QueryCommand {
  static override summary = "List this repository's memories and notes, newest first.";
  static override description = 'Anchors are checked against the code as they are listed: moved ones are followed, lost ones flagged.';
  static override examples = ['<%= config.bin %> memory list', '<%= config.bin %> memory list --kind invariant --kind decision --json'];
  static override flags = {
    ...queryBaseFlags,
    kind: Flags.string({ description: 'Only this kind; repeatable', options: ['memory', 'decision', 'invariant', 'risk_ack', 'note'], multiple: true }),
    limit: Flags.integer({ description: 'Most memories listed (default 20)', default: 20 }),
    all: Flags.boolean({ description: "Also other repositories' memories" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryListCommand);
    const args: Record<string, unknown> = { order: 'recent', mark_accessed: false, limit: flags.limit };
    if (flags.kind) args.kinds = flags.kind;
    if (flags.all) args.all_repos = true;
    const { renderMemories } = await import('../../render-memory');
    await this.runTool('surface_memories', args, flags, renderMemories);
  }
}
