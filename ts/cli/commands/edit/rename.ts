import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit rename <id> <new-name>`: rename_symbol. */
export default class EditRename extends QueryCommand {
  static override summary = 'Rename a symbol and every reference the graph records.';
  static override description =
    'Renames the declaration, its calls, type uses, imports and receivers, and test functions whose names embed it; whole identifiers only. ' +
    'Every file is parse-gated and written all or nothing; mentions it leaves alone (comments, strings) are listed.';
  static override examples = ["<%= config.bin %> edit rename 'src/store.ts::openStore' createStore --dry-run", '<%= config.bin %> edit rename Store.save put'];

  static override args = {
    id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
    'new-name': Args.string({ description: 'The new identifier', required: true }),
  };

  static override flags = {
    ...queryBaseFlags,
    'dry-run': Flags.boolean({ description: 'List the edits without writing' }),
    'no-tests': Flags.boolean({ description: 'Leave test functions named after the symbol alone' }),
    'allow-parse-errors': Flags.boolean({ description: 'Write even if a file gains syntax errors' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditRename);
    const toolArgs = {
      id: args.id,
      new_name: args['new-name'],
      ...(flags['dry-run'] ? { dry_run: true } : {}),
      ...(flags['no-tests'] ? { include_tests: false } : {}),
      ...(flags['allow-parse-errors'] ? { allow_parse_errors: true } : {}),
    };
    await this.runTool('rename_symbol', toolArgs, flags, renderRename);
  }
}

/** A rename's answer for people: what changed where, and what was left alone. */
function renderRename(r: Record<string, any>): string {
  if (r.status === 'no_edits') return `nothing to rename: ${r.id} has no occurrences to change`;
  const verb = r.status === 'would_apply' ? 'would rename' : 'renamed';
  const lines = [`${verb} ${r.old_name} → ${r.new_name}: ${r.edit_count} line${r.edit_count === 1 ? '' : 's'} in ${r.files.length} file${r.files.length === 1 ? '' : 's'}`];
  for (const e of r.edits as { path: string; line: number; after: string; reason: string }[]) lines.push(`  ${e.path}:${e.line}  ${e.after.trim()}  (${e.reason})`);
  if (r.edits_truncated) lines.push('  …');
  for (const t of (r.tests_renamed ?? []) as { from: string; to: string }[]) lines.push(`test ${t.from} → ${t.to}`);
  if (r.references) lines.push(`references: ${r.references.before} before, ${r.references.after} after`);
  if (r.not_changed) {
    lines.push(r.not_changed.note);
    for (const l of r.not_changed.lines as { path: string; line: number; text: string }[]) lines.push(`  ${l.path}:${l.line}  ${l.text.trim()}`);
  }
  return lines.join('\n');
}
