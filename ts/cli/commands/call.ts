import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import { CliUsageError } from '../repo-root';

/** `gortex call <tool>`: one tool call through the registry, as an agent would make it. */
export default class CallCommand extends GortexCommand {
  static override summary = 'Call one gortex tool with arguments and print its JSON answer.';
  static override description =
    'Runs a tool exactly as the MCP server would (same validation, same answer) on the repository ' +
    'containing the working directory (or --repo). Arguments come from --arg key=value (values that ' +
    'parse as JSON are taken as JSON: numbers, booleans, arrays) and/or --json-args. `gortex call --list` ' +
    'lists the tools.';
  static override examples = [
    '<%= config.bin %> call search_symbols --arg query=parseConfig --arg limit=5',
    '<%= config.bin %> call get_callers --json-args \'{"id":"Store.save","depth":2}\'',
    '<%= config.bin %> call --list',
  ];

  static override args = { tool: Args.string({ description: 'The tool name', required: false }) };

  static override flags = {
    arg: Flags.string({ description: 'An argument as key=value (repeatable)', multiple: true }),
    'json-args': Flags.string({ description: 'Arguments as one JSON object (merged under --arg)' }),
    repo: Flags.string({ description: 'A folder inside the repository (default: the current directory)' }),
    list: Flags.boolean({ description: 'List the tools with their descriptions' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CallCommand);
    const { ALL_TOOLS } = await import('../../tools/index');
    if (flags.list || args.tool === undefined) {
      if (!flags.list) throw new CliUsageError('Name a tool to call (gortex call --list shows them)');
      for (const t of ALL_TOOLS) this.log(`${t.name.padEnd(22)} ${t.description}`);
      return;
    }
    const toolArgs: Record<string, unknown> = {};
    if (flags['json-args'] !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(flags['json-args']);
      } catch (error) {
        throw new CliUsageError(`--json-args is not valid JSON: ${(error as Error).message}`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new CliUsageError('--json-args must be a JSON object, e.g. {"id":"Store.save"}');
      }
      Object.assign(toolArgs, parsed);
    }
    for (const pair of flags.arg ?? []) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new CliUsageError(`--arg ${JSON.stringify(pair)} must look like key=value`);
      const raw = pair.slice(eq + 1);
      let value: unknown = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        /* a plain string */
      }
      toolArgs[pair.slice(0, eq)] = value;
    }
    const { openEmbedded } = await import('../../mcp/embedded');
    const { callTool, ToolCallError } = await import('../../tools/dispatch');
    const repo = await openEmbedded(flags.repo, { watch: false });
    try {
      const { ResultWithMeta } = await import('../../tools/registry');
      const answer = await callTool(await repo.context(), args.tool, toolArgs);
      this.log(JSON.stringify(answer instanceof ResultWithMeta ? answer.result : answer, null, 2));
    } catch (error) {
      if (error instanceof ToolCallError && error.code !== 'internal') throw new CliUsageError(`${error.code}: ${error.message}`);
      throw error;
    } finally {
      repo.close();
    }
  }
}
