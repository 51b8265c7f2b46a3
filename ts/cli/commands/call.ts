import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';
import { UsageError } from '../../support/usage-error';
import { toolArgsFromFlags } from '../tool-args';

/** `gortex call <tool>`: one tool call through the call pipeline, as an agent would make it. */
export default class CallCommand extends GortexCommand {
  static override summary = 'Call one gortex tool with arguments and print its JSON answer.';
  static override description =
    'Runs a tool through the same call pipeline as the MCP server and the HTTP API (same validation, ' +
    'repo/project/scope narrowing, budgets and cursors, compact tools, same answer) on the repository ' +
    'containing the working directory (or --repo), through the daemon when one runs or can start (else in ' +
    'this process; --embedded forces that). Arguments come from --arg key=value (values that parse as JSON ' +
    'are taken as JSON: numbers, booleans, arrays) and/or --json-args; the pipeline options ' +
    '(format, max_bytes, max_tokens, cursor, if_none_match, repo, project, scope) are arguments too. ' +
    '--format gcx prints GCX1 (a format argument wins over the flag). --meta prints the answer with its ' +
    '_meta (etag, facade routing). `gortex call --list` lists the tools.';
  static override examples = [
    '<%= config.bin %> call search_symbols --arg query=parseConfig --arg limit=5',
    '<%= config.bin %> call get_callers --json-args \'{"id":"Store.save","depth":2}\'',
    '<%= config.bin %> call get_callers --arg id=Store.save --format gcx',
    '<%= config.bin %> call find_files --arg query=ts --arg max_bytes=600',
    '<%= config.bin %> call search --arg operation=symbols --arg query=Store',
    '<%= config.bin %> call --list',
  ];

  static override args = { tool: Args.string({ description: 'The tool name', required: false }) };

  static override flags = {
    arg: Flags.string({ description: 'An argument as key=value (repeatable)', multiple: true }),
    'json-args': Flags.string({ description: 'Arguments as one JSON object (merged under --arg)' }),
    repo: Flags.string({ description: 'A folder inside the repository (default: the current directory)' }),
    list: Flags.boolean({ description: 'List the tools with their descriptions' }),
    embedded: Flags.boolean({ description: 'Index and answer in this process instead of asking the daemon' }),
    format: Flags.string({ description: 'json (default, indented) or gcx (GCX1 text)', options: ['json', 'gcx'] }),
    meta: Flags.boolean({ description: 'Print {result, meta} (JSON) instead of the answer alone' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CallCommand);
    if (flags.list || args.tool === undefined) {
      if (!flags.list) throw new UsageError('Name a tool to call (gortex call --list shows them)');
      const { callableTools } = await import('../../calls/surface');
      for (const t of callableTools()) this.log(`${t.name.padEnd(22)} ${t.description}`);
      return;
    }
    const toolArgs = toolArgsFromFlags(flags['json-args'], flags.arg);
    const { runCall, refusalError } = await import('../run-tool');
    const outcome = await runCall(flags.repo, args.tool, toolArgs, { embedded: flags.embedded, format: flags.format as 'json' | 'gcx' | undefined });
    if (!outcome.ok) throw refusalError(outcome.code, outcome.message);
    if (outcome.format === 'gcx') {
      if (flags.meta) this.log(JSON.stringify({ result: outcome.text, meta: outcome.meta }, null, 2));
      else this.log(outcome.text.replace(/\n$/, ''));
      return;
    }
    const value = JSON.parse(outcome.text) as unknown;
    this.log(JSON.stringify(flags.meta ? { result: value, meta: outcome.meta } : value, null, 2));
  }
}
