import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import { CliUsageError } from '../repo-root';
import { runToolEmbedded } from '../run-tool';
import { toolArgsFromFlags } from '../tool-args';

/** `gortex call <tool>`: one tool call through the registry, as an agent would make it. */
export default class CallCommand extends GortexCommand {
  static override summary = 'Call one gortex tool with arguments and print its JSON answer.';
  static override description =
    'Runs a tool exactly as the MCP server would (same validation, same answer) on the repository ' +
    'containing the working directory (or --repo), through the daemon when one runs or can start (else in this process; --embedded forces that). Arguments come from --arg key=value (values that ' +
    'parse as JSON are taken as JSON: numbers, booleans, arrays) and/or --json-args. --format gcx prints the ' +
    'answer as GCX1 (what MCP clients get with format: "gcx"). `gortex call --list` lists the tools.';
  static override examples = [
    '<%= config.bin %> call search_symbols --arg query=parseConfig --arg limit=5',
    '<%= config.bin %> call get_callers --json-args \'{"id":"Store.save","depth":2}\'',
    '<%= config.bin %> call get_callers --arg id=Store.save --format gcx',
    '<%= config.bin %> call --list',
  ];

  static override args = { tool: Args.string({ description: 'The tool name', required: false }) };

  static override flags = {
    arg: Flags.string({ description: 'An argument as key=value (repeatable)', multiple: true }),
    'json-args': Flags.string({ description: 'Arguments as one JSON object (merged under --arg)' }),
    repo: Flags.string({ description: 'A folder inside the repository (default: the current directory)' }),
    list: Flags.boolean({ description: 'List the tools with their descriptions' }),
    embedded: Flags.boolean({ description: 'Index and answer in this process instead of asking the daemon' }),
    format: Flags.string({ description: 'json (default, indented) or gcx (GCX1 text)', options: ['json', 'gcx'], default: 'json' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CallCommand);
    const { ALL_TOOLS } = await import('../../tools/index');
    if (flags.list || args.tool === undefined) {
      if (!flags.list) throw new CliUsageError('Name a tool to call (gortex call --list shows them)');
      for (const t of ALL_TOOLS) this.log(`${t.name.padEnd(22)} ${t.description}`);
      return;
    }
    const toolArgs = toolArgsFromFlags(flags['json-args'], flags.arg);
    if ('format' in toolArgs) throw new CliUsageError('Pass the output format as --format json|gcx, not as a tool argument');
    const answer = await runToolEmbedded(flags.repo, args.tool, toolArgs, { embedded: flags.embedded });
    if (flags.format === 'gcx') {
      const { encodeGcx } = await import('../../wire/gcx');
      this.log(encodeGcx(args.tool, answer).replace(/\n$/, ''));
    } else {
      this.log(JSON.stringify(answer, null, 2));
    }
  }
}
