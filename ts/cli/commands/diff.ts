import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';

/** `gortex diff`: detect_changes — what the working tree (or the staged changes) changed, as declarations. */
export default class DiffCommand extends QueryCommand {
  static override summary = 'Show what a git diff changed, as declarations.';
  static override description =
    'Each changed file (added, modified, deleted, renamed) with the functions, methods and types it added, modified or deleted, ' +
    'comparing the working tree (untracked files included) or the staged changes with a base (default HEAD).';
  static override examples = ['<%= config.bin %> diff', '<%= config.bin %> diff --base main --json', '<%= config.bin %> diff --staged src/'];

  static override strict = false;
  static override flags = {
    ...queryBaseFlags,
    base: Flags.string({ description: 'A commit, branch or tag to compare with (default HEAD)' }),
    staged: Flags.boolean({ description: 'Compare the staged changes instead of the working tree' }),
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(DiffCommand);
    const paths = (argv as string[]).filter(Boolean);
    const args = {
      ...(flags.base !== undefined ? { base: flags.base } : {}),
      ...(flags.staged ? { staged: true } : {}),
      ...(paths.length > 0 ? { paths } : {}),
    };
    await this.runTool('detect_changes', args, flags, renderChanges);
  }
}

const MARK: Record<string, string> = { added: '+', modified: '~', deleted: '-' };

/** detect_changes for people: one line per file, one per declaration under it. */
function renderChanges(r: Record<string, any>): string {
  if (r.files.length === 0) return `no changes against ${r.base}`;
  const s = r.summary;
  const lines = [
    `${s.files} file${s.files === 1 ? '' : 's'} changed against ${r.base} (+${s.additions} -${s.deletions}); declarations: ${s.symbols.added} added, ${s.symbols.modified} modified, ${s.symbols.deleted} deleted`,
  ];
  for (const f of r.files as Record<string, any>[]) {
    lines.push(`${f.status.padEnd(8)} ${f.old_path ? `${f.old_path} → ` : ''}${f.path}  (+${f.additions} -${f.deletions})`);
    for (const sym of (f.symbols ?? []) as Record<string, any>[]) lines.push(`  ${MARK[sym.change]} ${sym.kind} ${sym.id.split('::')[1]}  L${sym.start_line}-${sym.end_line}`);
  }
  if (r.truncated) lines.push('… (more files)');
  return lines.join('\n');
}
