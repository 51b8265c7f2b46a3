import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';
import { UsageError } from '../../support/usage-error';

/** Verdicts from least to most severe: `--fail-on` names the lowest one that fails. */
const ORDER = ['APPROVE', 'REVIEW', 'BLOCK'];
/** Exit codes of a failing verdict (1 stays a failure to run, 2 bad input). */
const EXIT: Record<string, number> = { BLOCK: 3, REVIEW: 4 };

/** `gortex review`: the review gate over a changeset, for people and CI. */
export default class ReviewCommand extends QueryCommand {
  static override summary = 'Review a changeset with the correctness rulepack and print a verdict.';
  static override description =
    'Runs the graph-grounded rulepack (null dereference, check-then-act, N+1, unclosed resources, SQL/shell injection, weak crypto, ' +
    'secrets, swallowed errors, logic slips) over the working tree against --base (default HEAD), the staged changes, a diff file, ' +
    'or every file under --scope. Findings the base already had are pre-existing and do not count. Exit code: 0 when the verdict ' +
    'is below --fail-on, 3 for BLOCK, 4 for REVIEW (with --fail-on review), 1 when the review could not run, 2 for bad input.';
  static override examples = [
    '<%= config.bin %> review',
    '<%= config.bin %> review --base origin/main --format sarif > gortex.sarif',
    'git diff | <%= config.bin %> review --diff -',
    '<%= config.bin %> review --scope src/ --min-severity error',
  ];

  static override flags = {
    ...queryBaseFlags,
    base: Flags.string({ description: 'A commit, branch or tag to compare with (default HEAD)' }),
    staged: Flags.boolean({ description: 'Review the staged changes' }),
    diff: Flags.string({ description: 'A unified diff file already applied to the working tree (- reads stdin)' }),
    scope: Flags.string({ description: 'A path prefix: limits the changeset, or alone reviews every file under it' }),
    rules: Flags.string({ description: 'Comma-separated rule ids or categories (default all)' }),
    'min-severity': Flags.string({ description: 'Lowest severity reported', options: ['info', 'warning', 'error', 'critical'] }),
    'fail-on': Flags.string({ description: 'Lowest verdict that exits non-zero', options: ['block', 'review', 'never'], default: 'block' }),
    format: Flags.string({ description: 'Output format', options: ['text', 'json', 'sarif'], default: 'text' }),
    limit: Flags.integer({ description: 'Most findings listed (default 200)' }),
    'include-dropped': Flags.boolean({ description: 'List what the graph pass dropped, with reasons (json)' }),
    'use-llm': Flags.boolean({ description: 'Also ask the configured language model (llm: in the global config) for defects in the changed lines; capped at warning' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ReviewCommand);
    const args: Record<string, unknown> = {};
    if (flags.base !== undefined) args.base = flags.base;
    if (flags.staged) args.staged = true;
    if (flags.scope !== undefined) args.scope = flags.scope;
    if (flags.rules !== undefined) args.rules = flags.rules.split(',').map((r) => r.trim()).filter(Boolean);
    if (flags['min-severity'] !== undefined) args.min_severity = flags['min-severity'];
    if (flags.limit !== undefined) args.limit = flags.limit;
    if (flags['include-dropped']) args.include_dropped = true;
    if (flags['use-llm']) args.use_llm = true;
    if (flags.diff !== undefined) {
      try {
        args.diff = fs.readFileSync(flags.diff === '-' ? 0 : flags.diff, 'utf8');
      } catch (e) {
        throw new UsageError(`--diff ${flags.diff}: ${(e as Error).message}`);
      }
    }
    const { runToolValue } = await import('../run-tool');
    const { renderReviewText, renderReviewSarif } = await import('../render-review');
    const result = (await runToolValue(flags.repo, 'review', args, { embedded: flags.embedded })) as { verdict: string };
    const format = flags.json ? 'json' : flags.format;
    this.log(format === 'json' ? JSON.stringify(result, null, 2) : format === 'sarif' ? renderReviewSarif(result) : renderReviewText(result));
    const threshold = flags['fail-on'] === 'never' ? Infinity : ORDER.indexOf(flags['fail-on'].toUpperCase());
    if (ORDER.indexOf(result.verdict) >= threshold) process.exitCode = EXIT[result.verdict] ?? 1;
  }
}
