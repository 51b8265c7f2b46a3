import { Args, Flags } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { editBaseArgs, editBaseFlags, renderEdit, textFrom } from '../../edit-command';

/** `gortex edit write <path> --from FILE`: write_file. */
export default class EditWrite extends QueryCommand {
  static override summary = 'Create a file, or overwrite one whole, inside the repository.';
  static override description = 'Folders are created. The write is atomic, parse-gated, and indexed before the command returns.';
  static override examples = ['<%= config.bin %> edit write src/new.ts --content "export const x = 1;"', 'cat draft.ts | <%= config.bin %> edit write src/new.ts --from -'];

  static override args = { path: Args.string({ description: 'Repository-relative path', required: true }) };

  static override flags = {
    ...editBaseFlags,
    content: Flags.string({ description: 'The whole new content' }),
    from: Flags.string({ description: 'Read the content from this file (- for standard input)' }),
    'create-only': Flags.boolean({ description: 'Refuse if the file already exists' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditWrite);
    const toolArgs = {
      path: args.path,
      content: textFrom(flags.content, flags.from, '--content'),
      ...(flags['create-only'] ? { create_only: true } : {}),
      ...editBaseArgs(flags),
    };
    await this.runTool('write_file', toolArgs, flags, renderEdit);
  }
}
