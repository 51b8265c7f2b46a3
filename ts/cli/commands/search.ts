import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { argumentHelp } from '../tool-flags';

/** `gortex search <query>`: symbol search. */
export default class SearchCommand extends QueryCommand {
  static override summary = 'Find symbols by name, words or description.';
  static override description =
    'Searches symbol names, qualified names, signatures, doc summaries and paths (camelCase and ' +
    'snake_case aware, prefix and typo tolerant), ranked with graph signals. Inline clauses narrow ' +
    'the search: kind:function flavor:class lang:go path:src/util.';
  static override examples = [
    '<%= config.bin %> search parseConfig',
    '<%= config.bin %> search "retry with backoff" --limit 5',
    '<%= config.bin %> search "kind:interface Handler" --json',
    '<%= config.bin %> search "redirects trailing slashes even when RedirectTrailingSlash is off" --read-as body',
  ];

  static override args = { query: Args.string({ description: 'What to look for', required: true }) };

  static override flags = {
    ...queryBaseFlags,
    limit: Flags.integer({ description: 'At most this many results (1–1000)', default: 20 }),
    kind: Flags.string({ description: 'Only this node kind (function, method, type, interface, …)' }),
    lang: Flags.string({ description: argumentHelp('search_symbols', 'lang') }),
    path: Flags.string({ description: argumentHelp('search_symbols', 'path') }),
    'max-per-file': Flags.integer({ description: argumentHelp('search_symbols', 'max_per_file') }),
    'read-as': Flags.string({ description: argumentHelp('search_symbols', 'read_as'), options: ['auto', 'names', 'sentence', 'body'] }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SearchCommand);
    const { renderSearch } = await import('../render');
    const toolArgs: Record<string, unknown> = { query: args.query, limit: flags.limit };
    if (flags.kind !== undefined) toolArgs.kind = flags.kind;
    if (flags.lang !== undefined) toolArgs.lang = flags.lang;
    if (flags.path !== undefined) toolArgs.path = flags.path;
    if (flags['max-per-file'] !== undefined) toolArgs.max_per_file = flags['max-per-file'];
    if (flags['read-as'] !== undefined) toolArgs.read_as = flags['read-as'];
    await this.runTool('search_symbols', toolArgs, flags, renderSearch);
  }
}
