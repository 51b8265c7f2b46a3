/** Shared plumbing of the query verbs (`gortex query …`, `gortex search`, `gortex grep`). */
import { Flags } from '@oclif/core';
import { GortexCommand } from './base-command';
import { CliUsageError } from './repo-root';

/** Flags every query verb takes. */
export const queryBaseFlags = {
  json: Flags.boolean({ description: 'Print the result as JSON (one payload, unchanged from the engine)' }),
  repo: Flags.string({ description: 'A folder inside the repository to query (default: the current directory)' }),
};

/** A query verb: opens the repository (refreshing what changed), runs one tool, prints the result. */
export abstract class QueryCommand extends GortexCommand {
  /** Runs `tool` on the repository named by `--repo` (or the working directory) and prints it. */
  protected async runTool(
    tool: string,
    args: Record<string, unknown>,
    flags: { json: boolean; repo?: string | undefined },
    render: (result: any) => string, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<void> {
    const { openRepo } = await import('./open-repo');
    const { engine, root } = await openRepo(flags.repo);
    const { QueryError } = await import('../engine/query');
    let result: unknown;
    try {
      result = engine.query(tool, args, { repo: root });
    } catch (error) {
      // Bad input (unknown name, invalid regex, …) is the user's to fix: exit code 2, message alone.
      if (error instanceof QueryError && error.code !== 'internal') throw new CliUsageError(error.message);
      throw error;
    }
    this.log(flags.json ? JSON.stringify(result, null, 2) : render(result));
  }
}

/** Flags of the traversal verbs under `gortex query`. */
export const traversalFlags = {
  ...queryBaseFlags,
  limit: Flags.integer({ description: 'At most this many rows (1–1000)' }),
  'min-tier': Flags.string({
    description: 'Weakest provenance to keep: lsp_resolved, lsp_dispatch, ast_resolved, ast_inferred, text_matched',
  }),
};

/** The traversal flags plus `--depth`, for the verbs that walk more than one hop. */
export const multiHopFlags = {
  ...traversalFlags,
  depth: Flags.integer({ description: 'How many hops to follow (the tool checks the range)' }),
};

/** Tool arguments from the traversal flags that were given. */
export function traversalArgs(
  id: string,
  flags: { depth?: number | undefined; limit?: number | undefined; 'min-tier'?: string | undefined },
): Record<string, unknown> {
  const args: Record<string, unknown> = { id };
  if (flags.depth !== undefined) args.depth = flags.depth;
  if (flags.limit !== undefined) args.limit = flags.limit;
  if (flags['min-tier'] !== undefined) args.min_tier = flags['min-tier'];
  return args;
}
