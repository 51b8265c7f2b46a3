import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit move <id> <to>`: move_symbol. */
export default class EditMove extends QueryCommand {
  static override summary = 'Move a top-level declaration to another file, module or package, rewriting its importers.';
  static override description =
    'TS/JS, Python, Go, Java and Rust. The moved code gets the imports it needs, its importers point at the new place, the old file loses imports it no longer uses. ' +
    'Refused before writing anything when it would create an import cycle, when the moved code uses something the new place cannot see, or when a user reaches it in a way gortex cannot rewrite.';
  static override examples = ["<%= config.bin %> edit move 'src/geo.ts::area' src/shapes/area.ts --dry-run", "<%= config.bin %> edit move 'calc/calc.go::Shout' text", "<%= config.bin %> edit move 'src/app/Util.java::Util' src/app/util"];

  static override args = {
    id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
    to: Args.string({ description: 'Target file (Go and Java: or a folder), relative to the repository root', required: true }),
  };

  static override flags = {
    ...queryBaseFlags,
    'dry-run': Flags.boolean({ description: 'Print the diffs without writing' }),
    'allow-parse-errors': Flags.boolean({ description: 'Write even if a file gains syntax errors' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditMove);
    const toolArgs = { id: args.id, to: args.to, ...(flags['dry-run'] ? { dry_run: true } : {}), ...(flags['allow-parse-errors'] ? { allow_parse_errors: true } : {}) };
    await this.runTool('move_symbol', toolArgs, flags, (r: Record<string, any>) => {
      const head = `${r.status === 'would_apply' ? 'would move' : 'moved'} ${r.id} → ${r.new_id}`;
      const notes = ((r.notes ?? []) as string[]).map((n) => `note: ${n}`);
      return [head, ...notes, ...(r.diffs as string[])].join('\n').trimEnd();
    });
  }
}
