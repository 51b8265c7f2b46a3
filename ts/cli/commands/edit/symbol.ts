import { Args, Flags } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { editBaseArgs, editBaseFlags, renderEdit, textFrom } from '../../edit-command';

/** `gortex edit symbol <id> --from FILE`: edit_symbol. */
export default class EditSymbol extends QueryCommand {
  static override summary = "Replace a symbol's source by id.";
  static override description =
    "Replaces the symbol's lines, first to last, with the new source (written with the file's line endings). " +
    'With --old-source the edit is refused if the current source differs.';
  static override examples = ["<%= config.bin %> edit symbol 'src/config.ts::loadConfig' --from new-load.ts --dry-run"];

  static override args = { id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }) };

  static override flags = {
    ...editBaseFlags,
    source: Flags.string({ description: "The symbol's complete new source" }),
    from: Flags.string({ description: 'Read the new source from this file (- for standard input)' }),
    'old-source': Flags.string({ description: 'The source you expect to replace' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditSymbol);
    const toolArgs = {
      id: args.id,
      new_source: textFrom(flags.source, flags.from, '--source'),
      ...(flags['old-source'] !== undefined ? { old_source: flags['old-source'] } : {}),
      ...editBaseArgs(flags),
    };
    await this.runTool('edit_symbol', toolArgs, flags, renderEdit);
  }
}
