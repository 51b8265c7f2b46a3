import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit guards`: check_guards. */
export default class EditGuards extends QueryCommand {
  static override summary = 'Check the guard rules of .gortex.yaml against the current changes (exit 1 when an error rule is broken).';
  static override examples = ['<%= config.bin %> edit guards', '<%= config.bin %> edit guards --all --json'];

  static override flags = {
    ...queryBaseFlags,
    base: Flags.string({ description: 'A commit, branch or tag to compare with (default HEAD)' }),
    staged: Flags.boolean({ description: 'Check the staged changes' }),
    all: Flags.boolean({ description: 'Check boundary rules against every declaration' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EditGuards);
    const args = { ...(flags.base ? { base: flags.base } : {}), ...(flags.staged ? { staged: true } : {}), ...(flags.all ? { all: true } : {}) };
    const { runToolValue } = await import('../../run-tool');
    const r = (await runToolValue(flags.repo, 'check_guards', args, { embedded: flags.embedded })) as Record<string, any>;
    this.log(flags.json ? JSON.stringify(r, null, 2) : render(r));
    if (!r.passed) this.exit(1);
  }
}

/** check_guards for people: the verdict, then each violation. */
function render(r: Record<string, any>): string {
  if (r.rules === 0) return r.note;
  const lines = [`${r.passed ? 'passed' : 'failed'}: ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'} of ${r.rules} rule${r.rules === 1 ? '' : 's'}`];
  for (const v of r.violations as Record<string, any>[]) {
    lines.push(`  ${v.severity} ${v.rule}: ${v.message}${v.at ? ` (${v.at.path}:${v.at.line} → ${v.to})` : v.files ? ` (${v.files.join(', ')})` : ''}`);
  }
  return lines.join('\n');
}
