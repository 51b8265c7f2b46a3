import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit delete <id>`: safe_delete_symbol. */
export default class EditDelete extends QueryCommand {
  static override summary = 'Delete a declaration nothing uses (and, with --cascade apply, what that leaves unused).';
  static override description = 'Refused, with the users listed, while anything outside it references it (tests included) or when it overrides or is overridden.';
  static override examples = ["<%= config.bin %> edit delete 'src/legacy.ts::oldBanner' --cascade preview", '<%= config.bin %> edit delete unusedHelper --dry-run'];

  static override args = { id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }) };

  static override flags = {
    ...queryBaseFlags,
    cascade: Flags.string({ description: 'off (default), preview the declarations it leaves unused, or apply: delete them too', options: ['off', 'preview', 'apply'] }),
    'dry-run': Flags.boolean({ description: 'Show what would be deleted without writing' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditDelete);
    const toolArgs = { id: args.id, ...(flags.cascade ? { cascade: flags.cascade } : {}), ...(flags['dry-run'] ? { dry_run: true } : {}) };
    await this.runTool('safe_delete_symbol', toolArgs, flags, (r: Record<string, any>) => {
      const verb = r.status === 'would_apply' ? 'would delete' : 'deleted';
      const lines = (r.deleted as { id: string; path: string; lines: [number, number] }[]).map((d) => `${verb} ${d.id}  ${d.path}:${d.lines[0]}-${d.lines[1]}`);
      for (const o of (r.orphans ?? []) as { id: string }[]) lines.push(`would leave unused: ${o.id} (--cascade apply deletes it)`);
      if (r.note) lines.push(r.note);
      return lines.join('\n');
    });
  }
}
