import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex memory add`: store a memory anchored to symbols and files. */
export default class MemoryAddCommand extends QueryCommand {
  static override summary = 'Remember something for later sessions, anchored to the code it is about.';
  static override description =
    'Stores a memory, decision, invariant, risk acknowledgement or note in the sidecar (<gortex home>/sidecar.sqlite). ' +
    'Anchors (--symbol, --file) follow renames and moves; agents get it back with surface_memories (compact recall.memories) when they work near them.';
  static override examples = [
    '<%= config.bin %> memory add "Tokens are refreshed by the gateway only" --kind decision --symbol refreshToken',
    '<%= config.bin %> memory add "Keep this O(n)" --kind invariant --file src/index/merge.ts --tag perf',
  ];
  static override args = { text: Args.string({ description: 'What to remember', required: true }) };
  static override flags = {
    ...queryBaseFlags,
    kind: Flags.string({ description: 'memory (default), decision, invariant, risk_ack or note', options: ['memory', 'decision', 'invariant', 'risk_ack', 'note'], default: 'memory' }),
    title: Flags.string({ description: 'A short title' }),
    symbol: Flags.string({ description: 'A symbol it is about (id, Owner.name or name); repeatable', multiple: true }),
    file: Flags.string({ description: 'A file it is about (repository-relative); repeatable', multiple: true }),
    tag: Flags.string({ description: 'A tag; repeatable', multiple: true }),
    global: Flags.boolean({ description: 'Keep it for every repository' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryAddCommand);
    const note = flags.kind === 'note';
    const call: Record<string, unknown> = { content: args.text };
    if (!note) call.kind = flags.kind;
    if (flags.title !== undefined) call.title = flags.title;
    if (flags.symbol) call.symbols = flags.symbol;
    if (flags.file) call.files = flags.file;
    if (flags.tag) call.tags = flags.tag;
    if (flags.global) {
      if (note) this.error('notes belong to a repository; --global applies to the other kinds', { exit: 2 });
      call.global = true;
    }
    const { renderStored } = await import('../../render-memory');
    await this.runTool(note ? 'save_note' : 'store_memory', call, flags, renderStored);
  }
}
