import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** `gortex instructions show`: the active instruction profile (or another) and its text. */
export default class InstructionsShowCommand extends GortexCommand {
  static override summary = 'Show the instructions new MCP sessions get, and the tool preset they carry.';
  static override description =
    'The machine\'s active instruction profile (gortex instructions switch) is what every new MCP session sends as its instructions; ' +
    'a profile may carry a tool preset, used unless GORTEX_TOOLS, --tools or mcp.tools choose one.';
  static override examples = ['<%= config.bin %> instructions show', '<%= config.bin %> instructions show localization --json'];
  static override args = { profile: Args.string({ description: 'A profile to show instead of the active one (core, localization, full)' }) };
  static override flags = { json: Flags.boolean({ description: 'Print as JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(InstructionsShowCommand);
    const p = await import('../../../tools/profiles');
    const active = p.activeProfile();
    const name = args.profile !== undefined ? p.profileNamed(args.profile) : active.name;
    const preset = p.profilePreset(name);
    const answer = { profile: name, active: name === active.name, source: name === active.name ? active.source : 'asked', preset: preset ?? null, summary: p.profileSummary(name), instructions: p.profileInstructions(name) };
    if (flags.json) {
      this.log(JSON.stringify(answer, null, 2));
      return;
    }
    this.log(`${name}${answer.active ? ' (active)' : ''} — ${answer.summary}`);
    this.log(`tool preset: ${preset ?? 'none (the session default)'}`);
    this.log('');
    this.log(answer.instructions);
  }
}
