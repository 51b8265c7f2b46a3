import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex instructions list`: every instruction profile. */
export default class InstructionsListCommand extends GortexCommand {
  static override summary = 'List the instruction profiles and which one is active.';
  static override flags = { json: Flags.boolean({ description: 'Print as JSON' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(InstructionsListCommand);
    const p = await import('../../../tools/profiles');
    const active = p.activeProfile().name;
    const rows = p.INSTRUCTION_PROFILES.map((name) => ({ profile: name, active: name === active, preset: p.profilePreset(name) ?? null, summary: p.profileSummary(name) }));
    if (flags.json) {
      this.log(JSON.stringify(rows, null, 2));
      return;
    }
    for (const r of rows) this.log(`${r.active ? '*' : ' '} ${r.profile.padEnd(13)} ${(r.preset ?? '-').padEnd(13)} ${r.summary}`);
  }
}
