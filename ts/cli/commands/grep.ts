import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { argumentHelp } from '../tool-flags';

/** `gortex grep <pattern>`: indexed text search. */
export default class GrepCommand extends QueryCommand {
  static override summary = 'Search file contents (literal or regex) through the trigram index.';
  static override description =
    'Finds a literal string (or a regular expression with --regexp) in every indexed file. Each hit ' +
    'shows path:line:column, the line, and the symbol that encloses it.';
  static override examples = [
    '<%= config.bin %> grep "TODO(perf)"',
    '<%= config.bin %> grep -e "fetch\\w+\\(" --path "src/**/*.ts"',
    '<%= config.bin %> grep -i retry --json',
  ];

  static override args = { pattern: Args.string({ description: 'The text (or regex) to find', required: true }) };

  static override flags = {
    ...queryBaseFlags,
    regexp: Flags.boolean({ char: 'e', description: 'Treat the pattern as a regular expression' }),
    'ignore-case': Flags.boolean({ char: 'i', description: 'Match case-insensitively' }),
    path: Flags.string({ description: argumentHelp('search_text', 'path') }),
    limit: Flags.integer({ description: argumentHelp('search_text', 'limit'), default: 100 }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GrepCommand);
    const { renderGrep } = await import('../render');
    const toolArgs: Record<string, unknown> = {
      query: args.pattern,
      regexp: flags.regexp,
      case_sensitive: !flags['ignore-case'],
      limit: flags.limit,
    };
    if (flags.path !== undefined) toolArgs.path = flags.path;
    await this.runTool('search_text', toolArgs, flags, renderGrep);
  }
}
