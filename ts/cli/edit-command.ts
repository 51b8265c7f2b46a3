/** Shared plumbing of the edit verbs (`gortex edit file|symbol|write`). */
import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { queryBaseFlags } from './query-command';
import { UsageError } from '../support/usage-error';

/** Flags every edit verb takes (besides what it edits). */
export const editBaseFlags = {
  ...queryBaseFlags,
  'dry-run': Flags.boolean({ description: 'Check everything and print the diff without writing' }),
  'base-sha': Flags.string({ description: "Refuse (conflict) unless the file's git blob SHA-1 is this (the new_sha of the last write, or git hash-object)" }),
  'allow-parse-errors': Flags.boolean({ description: 'Write even if the file gains syntax errors' }),
};

/** The tool arguments of the shared flags that were given. */
export function editBaseArgs(flags: { 'dry-run'?: boolean; 'base-sha'?: string | undefined; 'allow-parse-errors'?: boolean }): Record<string, unknown> {
  return {
    ...(flags['dry-run'] ? { dry_run: true } : {}),
    ...(flags['base-sha'] !== undefined ? { base_sha: flags['base-sha'] } : {}),
    ...(flags['allow-parse-errors'] ? { allow_parse_errors: true } : {}),
  };
}

/** Text given inline or read from a file (`-`: standard input); exactly one of the two. */
export function textFrom(inline: string | undefined, file: string | undefined, what: string): string {
  if (inline !== undefined && file !== undefined) throw new UsageError(`give ${what} inline or from a file, not both`);
  if (file !== undefined) {
    try {
      return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${what} from ${file === '-' ? 'standard input' : file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (inline === undefined) throw new UsageError(`${what} is missing`);
  return inline;
}

/** A write's answer for people: what happened, the new sha, and the diff. */
export function renderEdit(result: Record<string, any>): string {
  if (result.status === 'no_change') return `no change: ${result.path} already holds that text (sha ${result.new_sha})`;
  const verb = result.status === 'would_apply' ? 'would write' : result.created ? 'created' : 'wrote';
  const details = [
    result.replacements !== undefined ? `${result.replacements} replacement${result.replacements === 1 ? '' : 's'}` : undefined,
    result.eol_normalized ? 'line endings matched to the file' : undefined,
  ].filter(Boolean);
  const head = `${verb} ${result.path}${details.length > 0 ? ` (${details.join(', ')})` : ''}, new sha ${result.new_sha}`;
  return `${head}\n${result.diff ?? ''}${result.diff_truncated ? '… (diff cut)\n' : ''}`.trimEnd();
}
