import { Args } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex instructions switch`: make a profile the machine's active one. */
export default class InstructionsSwitchCommand extends GortexCommand {
  static override summary = 'Switch the instruction profile new MCP sessions get (core, localization, full).';
  static override description = 'Written to <gortex home>/instructions.json; sessions already running keep theirs.';
  static override examples = ['<%= config.bin %> instructions switch localization', '<%= config.bin %> instructions switch core'];
  static override args = { profile: Args.string({ description: 'core, localization or full', required: true }) };

  async run(): Promise<void> {
    const { args } = await this.parse(InstructionsSwitchCommand);
    const p = await import('../../../tools/profiles');
    const name = p.profileNamed(args.profile);
    p.switchProfile(name);
    const preset = p.profilePreset(name);
    this.log(`Instruction profile: ${name}${preset ? ` (tool preset ${preset})` : ''}. New MCP sessions use it; running ones keep theirs.`);
  }
}
