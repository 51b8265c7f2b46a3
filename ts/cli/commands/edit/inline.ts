import { Args, Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit inline <id>`: inline_symbol. */
export default class EditInline extends QueryCommand {
  static override summary = 'Inline a trivial function (one return or expression) at its call sites.';
  static override description =
    'TS/JS, Python, Go, Java static methods and Rust free functions. Calls whose meaning could change are refused with the reason (arguments evaluated twice or out of order, names the body uses that the call site cannot see or shadows); ' +
    'Go and Java keep the declared types with conversions and casts. --delete-after removes the function once nothing uses it.';
  static override examples = ["<%= config.bin %> edit inline 'src/geo.ts::area' --delete-after --dry-run", "<%= config.bin %> edit inline half --site src/main.go:12"];

  static override args = { id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }) };

  static override flags = {
    ...queryBaseFlags,
    site: Flags.string({ description: 'Inline only the call at PATH:LINE' }),
    'delete-after': Flags.boolean({ description: 'Delete the function once every call is inlined and nothing else uses it' }),
    'dry-run': Flags.boolean({ description: 'Print the diffs without writing' }),
    'allow-parse-errors': Flags.boolean({ description: 'Write even if a file gains syntax errors' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditInline);
    let site: { path: string; line: number } | undefined;
    if (flags.site !== undefined) {
      const m = /^(.+):(\d+)$/.exec(flags.site);
      if (!m) this.error(`--site must be PATH:LINE (for example src/main.ts:12), got ${JSON.stringify(flags.site)}`, { exit: 2 });
      site = { path: m[1]!, line: Number(m[2]) };
    }
    const toolArgs = {
      id: args.id,
      ...(site ? { site } : {}),
      ...(flags['delete-after'] ? { delete_after: true } : {}),
      ...(flags['dry-run'] ? { dry_run: true } : {}),
      ...(flags['allow-parse-errors'] ? { allow_parse_errors: true } : {}),
    };
    await this.runTool('inline_symbol', toolArgs, flags, (r: Record<string, any>) => {
      const verb = r.status === 'would_apply' ? 'would inline' : 'inlined';
      const lines = [`${verb} ${r.id} (${r.expression}) at ${(r.inlined as unknown[]).length} call${(r.inlined as unknown[]).length === 1 ? '' : 's'}; declaration ${r.declaration}`];
      for (const x of (r.refused ?? []) as { path: string; line: number; reason: string }[]) lines.push(`refused ${x.path}:${x.line}: ${x.reason}`);
      return [...lines, ...(r.diffs as string[])].join('\n').trimEnd();
    });
  }
}
