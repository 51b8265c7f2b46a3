/** Shared plumbing of the query verbs (`gortex query …`, `gortex search`, `gortex grep`). */
import { Flags } from '@oclif/core';
import { GortexCommand } from './base-command';
import type { QueryToolName } from '../engine/engine';
import { argumentHelp } from './tool-flags';

/** Flags every query verb takes. */
export const queryBaseFlags = {
  json: Flags.boolean({ description: 'Print the answer as JSON (the tool\'s answer, as every door gives it)' }),
  repo: Flags.string({ description: 'A folder inside the repository to query (default: the current directory)' }),
  embedded: Flags.boolean({ description: 'Index and query in this process instead of asking the daemon' }),
};

/** A query verb: runs one tool through the call pipeline (in the daemon, or embedded) and prints the result. */
export abstract class QueryCommand extends GortexCommand {
  /** Runs `tool` through the call pipeline on the repository named by `--repo` (or the working directory) and prints it. */
  protected async runTool(
    tool: string,
    args: Record<string, unknown>,
    flags: { json: boolean; repo?: string | undefined; embedded?: boolean | undefined },
    render: (result: any) => string, // eslint-disable-line @typescript-eslint/no-explicit-any
  ): Promise<void> {
    const { runToolValue } = await import('./run-tool');
    const result = await runToolValue(flags.repo, tool, args, { embedded: flags.embedded });
    this.log(flags.json ? JSON.stringify(result, null, 2) : render(result));
  }
}

/** Flags of the traversal verbs under `gortex query`, their help from `tool`'s generated schema. */
export function traversalFlags(tool: QueryToolName) {
  return {
    ...queryBaseFlags,
    limit: Flags.integer({ description: argumentHelp(tool, 'limit') }),
    'min-tier': Flags.string({ description: argumentHelp(tool, 'min_tier') }),
  };
}

/** The traversal flags plus `--depth`, for the verbs that walk more than one hop. */
export function multiHopFlags(tool: QueryToolName) {
  return { ...traversalFlags(tool), depth: Flags.integer({ description: argumentHelp(tool, 'depth') }) };
}

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
