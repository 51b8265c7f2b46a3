import { Args, Flags } from '@oclif/core';
import { QueryCommand } from '../../query-command';
import { editBaseArgs, editBaseFlags, renderEdit, textFrom } from '../../edit-command';

/** `gortex edit file <path> --old TEXT --new TEXT`: edit_file. */
export default class EditFile extends QueryCommand {
  static override summary = 'Replace an exact string in a file of the repository.';
  static override description =
    'The text must occur exactly once (or pass --all). LF and CRLF match either way; the file keeps its line endings. ' +
    'The write is atomic, refused if the file gains syntax errors, and the index is updated before the command returns.';
  static override examples = [
    "<%= config.bin %> edit file src/config.ts --old 'return 42;' --new 'return 43;' --dry-run",
    '<%= config.bin %> edit file README.md --old-file old.txt --new-file new.txt',
  ];

  static override args = { path: Args.string({ description: 'Repository-relative path', required: true }) };

  static override flags = {
    ...editBaseFlags,
    old: Flags.string({ description: 'The exact text to replace' }),
    'old-file': Flags.string({ description: 'Read the text to replace from this file (- for standard input)' }),
    new: Flags.string({ description: 'The text to put in its place' }),
    'new-file': Flags.string({ description: 'Read the new text from this file (- for standard input)' }),
    all: Flags.boolean({ description: 'Replace every occurrence' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditFile);
    const toolArgs = {
      path: args.path,
      old_string: textFrom(flags.old, flags['old-file'], '--old'),
      new_string: textFrom(flags.new, flags['new-file'], '--new'),
      ...(flags.all ? { replace_all: true } : {}),
      ...editBaseArgs(flags),
    };
    await this.runTool('edit_file', toolArgs, flags, renderEdit);
  }
}
