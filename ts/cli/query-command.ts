/** Shared plumbing of the query verbs (`gortex query …`, `gortex search`, `gortex grep`). */
import { Flags } from '@oclif/core';
import { GortexCommand } from './base-command';
import { CliUsageError } from './repo-root';

/** Flags every query verb takes. */
export const queryBaseFlags = {
  json: Flags.boolean({ description: 'Print the result as JSON (one payload, unchanged from the engine)' }),
  repo: Flags.string({ description: 'A folder inside the repository to query (default: the current directory)' }),
  embedded: Flags.boolean({ description: 'Index and query in this process instead of asking the daemon' }),
};

/** A query verb: runs one tool through the daemon (or embedded: opening the repository, refreshing what changed) and prints the result. */
export abstract class QueryCommand extends GortexCommand {
  /** Runs `tool` on the repository named by `--repo` (or the working directory) and prints it. */
  protected async runTool(
    tool: string,
    args: Record<string, unknown>,
    flags: { json: boolean; repo?: string | undefined; embedded?: boolean | undefined },
    render: (result: any) => string, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<void> {
    const { runToolRaw, ToolRefusal } = await import('./run-tool');
    let result: unknown;
    try {
      result = await runToolRaw(flags.repo, tool, args, { embedded: flags.embedded, door: 'engine' });
    } catch (error) {
      // Bad input (unknown name, invalid regex, …) is the user's to fix: exit code 2, message alone.
      if (error instanceof ToolRefusal && error.code !== 'internal') throw new CliUsageError(error.message);
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
