import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { argumentHelp } from '../tool-flags';

/** `gortex taint`: where untrusted input reaches dangerous calls. */
export default class TaintCommand extends QueryCommand {
  static override summary = 'Find dataflow paths from sources (request input by default) to sinks (SQL, commands, files).';
  static override description =
    'Sweeps the dataflow graph from every source to every sink and prints one finding per sink with ' +
    'its best path. Without --source, sources are request inputs of common web frameworks (req.query, ' +
    'request.args, r.URL, getParameter, c.Query, …); without --sink, sinks are the query/command/path ' +
    'argument of SQL, exec and filesystem calls. Patterns are space-separated clauses that must all ' +
    'hold: a word (substring of the name), exact:Name, path:dir/, kind:param|variable|argument|result|return|function|method.';
  static override examples = [
    '<%= config.bin %> taint',
    '<%= config.bin %> taint --source "kind:param exact:userId" --sink "exact:query kind:argument"',
    '<%= config.bin %> taint --path-prefix src/api/ --json',
  ];

  static override flags = {
    ...queryBaseFlags,
    source: Flags.string({ description: argumentHelp('taint_paths', 'source_pattern') }),
    sink: Flags.string({ description: argumentHelp('taint_paths', 'sink_pattern') }),
    'path-prefix': Flags.string({ description: argumentHelp('taint_paths', 'path_prefix') }),
    'max-depth': Flags.integer({ description: argumentHelp('taint_paths', 'max_depth') }),
    limit: Flags.integer({ description: argumentHelp('taint_paths', 'limit') }),
    'min-tier': Flags.string({ description: argumentHelp('taint_paths', 'min_tier') }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TaintCommand);
    const { renderTaint } = await import('../render-analysis');
    const args: Record<string, unknown> = {};
    if (flags.source !== undefined) args.source_pattern = flags.source;
    if (flags.sink !== undefined) args.sink_pattern = flags.sink;
    if (flags['path-prefix'] !== undefined) args.path_prefix = flags['path-prefix'];
    if (flags['max-depth'] !== undefined) args.max_depth = flags['max-depth'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    if (flags['min-tier'] !== undefined) args.min_tier = flags['min-tier'];
    await this.runTool('taint_paths', args, flags, renderTaint);
  }
}
