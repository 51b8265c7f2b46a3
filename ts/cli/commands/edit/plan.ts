import { Args } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex edit plan <id>...`: get_edit_plan. */
export default class EditPlan extends QueryCommand {
  static override summary = 'Order a change that spans files: definitions first, then their users, tests last.';
  static override examples = ['<%= config.bin %> edit plan Store.save loadConfig'];

  static override strict = false;
  static override args = { id: Args.string({ description: 'Declarations to change (ids, Owner.name or names)', required: true }) };
  static override flags = queryBaseFlags;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(EditPlan);
    await this.runTool('get_edit_plan', { ids: argv as string[] }, flags, (r: Record<string, any>) =>
      (r.steps as Record<string, any>[])
        .map((s) => `${s.step}. ${s.path} (${s.role})\n${(s.sites as Record<string, any>[]).map((x) => `     L${x.line} ${x.role} ${x.id}`).join('\n')}`)
        .join('\n'),
    );
  }
}
