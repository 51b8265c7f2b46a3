import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';

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
    'min-similarity': Flags.string({ description: 'Verified Jaccard similarity, 0.5–1.0 (default 0.82)' }),
    'dead-only': Flags.boolean({ description: 'Only clusters where a dead member duplicates a live one' }),
    'path-prefix': Flags.string({ description: 'Only clusters with a member under this path prefix' }),
    'include-tests': Flags.boolean({ description: 'Compare test code too' }),
    'min-tokens': Flags.integer({ description: 'Smallest body compared, in tokens (default and minimum 24)' }),
    limit: Flags.integer({ description: 'At most this many clusters (1–1000)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ClonesCommand);
    const { renderClones } = await import('../render-analysis');
    const { CliUsageError } = await import('../repo-root');
    const args: Record<string, unknown> = {};
    if (flags['min-similarity'] !== undefined) {
      const v = Number(flags['min-similarity']);
      if (!Number.isFinite(v)) throw new CliUsageError(`--min-similarity must be a number like 0.9, got ${JSON.stringify(flags['min-similarity'])}`);
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
