import { Args } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit verify <id> <new-signature>`: verify_change. */
export default class EditVerify extends QueryCommand {
  static override summary = 'Check a proposed signature against every call site and the override family.';
  static override examples = ["<%= config.bin %> edit verify loadConfig 'function loadConfig(path: string, opts?: Options): Config'"];

  static override args = {
    id: Args.string({ description: 'A symbol id, a qualified name (Owner.name) or a bare name', required: true }),
    signature: Args.string({ description: 'The proposed declaration head', required: true }),
  };

  static override flags = queryBaseFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditVerify);
    await this.runTool('verify_change', { id: args.id, new_signature: args.signature }, flags, (r: Record<string, any>) => {
      const lines = [`${r.verdict}: ${r.params.before ?? '?'} → ${r.params.after}; ${r.breaking} breaking, ${r.unknown} to check`];
      for (const c of r.callers as Record<string, any>[]) if (c.compatible !== true) lines.push(`  ${c.compatible === false ? 'breaks' : 'check '} ${c.path}:${c.line}  ${c.reason ?? 'arguments not readable'}`);
      for (const h of (r.hierarchy ?? []) as Record<string, any>[]) if (h.must_change !== false) lines.push(`  ${h.relation} ${h.id} (${h.params ?? '?'}) must change too`);
      return lines.join('\n');
    });
  }
}
