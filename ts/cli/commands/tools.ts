import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex tools`: the tool catalogue. */
export default class ToolsCommand extends GortexCommand {
  static override summary = 'List every tool with its family, effect and arguments.';
  static override description =
    'Prints the tool catalogue generated from the registry: every tool callable through MCP, /v1 and ' +
    'gortex call, grouped by family, with its arguments. --markdown prints it as the Markdown of ' +
    'docs/tools.md; --json prints each tool as tools/list and GET /v1/tools show it.';
  static override examples = ['<%= config.bin %> tools', '<%= config.bin %> tools --markdown > docs/tools.md', '<%= config.bin %> tools --json'];

  static override flags = {
    markdown: Flags.boolean({ description: 'Print the catalogue as Markdown', exclusive: ['json'] }),
    json: Flags.boolean({ description: 'Print every tool listing as JSON', exclusive: ['markdown'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsCommand);
    const { callableTools, toolListing } = await import('../../calls/surface');
    if (flags.markdown) {
      const { toolCatalogue } = await import('../../calls/catalogue');
      process.stdout.write(toolCatalogue());
      return;
    }
    if (flags.json) {
      this.log(JSON.stringify(callableTools().map(toolListing), null, 2));
      return;
    }
    const { TOOL_CATEGORIES } = await import('../../tools/registry');
    const tools = callableTools();
    for (const category of TOOL_CATEGORIES) {
      const members = tools.filter((t) => t.category === category);
      if (members.length === 0) continue;
      this.log(`${category}`);
      for (const t of members) this.log(`  ${t.name.padEnd(24)} ${t.effect.padEnd(14)} ${t.description}`);
    }
  }
}
