import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex analyze --kind K`: one whole-repository analysis. */
export default class AnalyzeCommand extends QueryCommand {
  static override summary = 'Run one analysis over the repository (dead code, hotspots, cycles, impact, …).';
  static override description =
    'Runs an analyze kind (see `gortex analyze kinds`) on the repository containing the working ' +
    'directory (or --repo) and prints a readable table, or the JSON with --json. Options specific to ' +
    'a kind come from --arg key=value (JSON values such as numbers and arrays are parsed) or --json-args.';
  static override examples = [
    '<%= config.bin %> analyze --kind dead_code --path-prefix src/',
    '<%= config.bin %> analyze --kind cycles --arg scope=imports',
    '<%= config.bin %> analyze --kind impact --json-args \'{"target":{"symbol":"Store.save"}}\'',
    '<%= config.bin %> analyze --kind health_score --json',
  ];

  static override flags = {
    ...queryBaseFlags,
    kind: Flags.string({ description: 'The analysis (gortex analyze kinds lists them)', required: true }),
    'path-prefix': Flags.string({ description: 'Only code under this path prefix' }),
    limit: Flags.integer({ description: 'At most this many rows (1–1000)' }),
    arg: Flags.string({ description: 'A kind-specific option as key=value (repeatable)', multiple: true }),
    'json-args': Flags.string({ description: 'Kind-specific options as one JSON object' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(AnalyzeCommand);
    const { toolArgsFromFlags } = await import('../../tool-args');
    const { renderAnalysis } = await import('../../render-analysis');
    const args: Record<string, unknown> = { ...toolArgsFromFlags(flags['json-args'], flags.arg), kind: flags.kind };
    if (flags['path-prefix'] !== undefined) args.path_prefix = flags['path-prefix'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    await this.runTool('analyze', args, flags, (r) => renderAnalysis(flags.kind, r));
  }
}
