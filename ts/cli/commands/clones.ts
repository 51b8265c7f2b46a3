import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { argumentHelp } from '../tool-flags';

/** `gortex clones`: near-duplicate functions and methods. */
export default class ClonesCommand extends QueryCommand {
  static override summary = 'List clusters of near-duplicate functions and methods.';
  static override description =
    'Compares every function and method body (normalised tokens: names, literals and comments do not ' +
    'matter) with MinHash + LSH and verifies each pair by exact Jaccard similarity. Clusters are ' +
    'printed largest first with their locations. --dead-only keeps clusters where a dead copy ' +
    'duplicates live code.';
  static override examples = [
    '<%= config.bin %> clones',
    '<%= config.bin %> clones --min-similarity 0.9 --path-prefix src/',
    '<%= config.bin %> clones --dead-only --json',
  ];

  static override flags = {
    ...queryBaseFlags,
    'min-similarity': Flags.string({ description: argumentHelp('find_clones', 'min_similarity') }),
    'dead-only': Flags.boolean({ description: argumentHelp('find_clones', 'dead_only') }),
    'path-prefix': Flags.string({ description: argumentHelp('find_clones', 'path_prefix') }),
    'include-tests': Flags.boolean({ description: argumentHelp('find_clones', 'include_tests') }),
    'min-tokens': Flags.integer({ description: argumentHelp('find_clones', 'min_tokens') }),
    limit: Flags.integer({ description: argumentHelp('find_clones', 'limit') }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ClonesCommand);
    const { renderClones } = await import('../render-analysis');
    const { UsageError } = await import('../../support/usage-error');
    const args: Record<string, unknown> = {};
    if (flags['min-similarity'] !== undefined) {
      const v = Number(flags['min-similarity']);
      if (!Number.isFinite(v)) throw new UsageError(`--min-similarity must be a number like 0.9, got ${JSON.stringify(flags['min-similarity'])}`);
      args.min_similarity = v;
    }
    if (flags['dead-only']) args.dead_only = true;
    if (flags['include-tests']) args.include_tests = true;
    if (flags['path-prefix'] !== undefined) args.path_prefix = flags['path-prefix'];
    if (flags['min-tokens'] !== undefined) args.min_tokens = flags['min-tokens'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    await this.runTool('find_clones', args, flags, renderClones);
  }
}
