import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex init`: wire gortex into the coding agents (MCP server entry + instructions). */
export default class InitCommand extends GortexCommand {
  static override summary = 'Set gortex up in your coding agents: their MCP server entry and a short instruction block.';
  static override description =
    'Writes each agent\'s documented files — Claude Code (.mcp.json, CLAUDE.md), Cursor (.cursor/mcp.json, .cursor/rules), ' +
    'VS Code (.vscode/mcp.json, .github/copilot-instructions.md), Windsurf, Zed (.zed/settings.json, .rules), Codex ' +
    '(~/.codex/config.toml, AGENTS.md), Gemini CLI (.gemini/settings.json, GEMINI.md), Continue (.continue/) and Cline — ' +
    'for the repository, or for the user with --global. Without --agent it sets up the agents installed here. ' +
    'Existing settings, comments and other servers are kept; running it again changes nothing; --dry-run shows the plan ' +
    'and diffs without writing; --remove undoes it exactly (a file edited since keeps the edits, only gortex\'s entry goes).';
  static override examples = [
    '<%= config.bin %> init',
    '<%= config.bin %> init --agent claude --agent cursor --dry-run',
    '<%= config.bin %> init --global --agent codex',
    '<%= config.bin %> init --remove',
  ];
  static override args = { path: Args.string({ description: 'The repository (default: the current directory)' }) };
  static override flags = {
    agent: Flags.string({ description: 'An agent to set up (claude, cursor, vscode, windsurf, zed, codex, gemini, continue, cline); repeatable', multiple: true }),
    all: Flags.boolean({ description: 'Every agent gortex knows, installed or not' }),
    global: Flags.boolean({ description: 'User-level configuration instead of the repository\'s' }),
    remove: Flags.boolean({ description: 'Take gortex out again' }),
    'dry-run': Flags.boolean({ description: 'Show what would change (with diffs) and write nothing' }),
    command: Flags.string({ description: 'How agents start the server (default "npx -y gortex mcp")' }),
    json: Flags.boolean({ description: 'Print the plan as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(InitCommand);
    const setup = await import('../agent-setup');
    const { UsageError } = await import('../../support/usage-error');
    const env = setup.setupEnv();
    let root = '';
    if (!flags.global) {
      const { resolveRepoRoot } = await import('../../support/repo-root');
      root = resolveRepoRoot(args.path);
    } else if (args.path !== undefined) throw new UsageError('--global sets up the user\'s configuration: give no path with it');
    const found = setup.detectAgents(env);
    let agents: string[];
    const why: Record<string, string> = {};
    if (flags.agent && flags.agent.length > 0) agents = setup.agentIds(flags.agent);
    else if (flags.all) agents = [...setup.AGENT_IDS];
    else {
      const installed = found.filter((a) => a.detected);
      if (installed.length === 0) {
        throw new UsageError(`no coding agent found here (looked for ${found.map((a) => a.name).join(', ')}); name one with --agent, or use --all`);
      }
      agents = installed.map((a) => a.id);
      for (const a of installed) why[a.id] = a.detected!;
    }
    let server = setup.DEFAULT_SERVER;
    if (flags.command !== undefined) {
      const words = flags.command.trim().split(/\s+/).filter(Boolean);
      if (words.length === 0) throw new UsageError('--command must name a program, e.g. "gortex mcp"');
      server = { command: words[0]!, args: words.slice(1) };
    }
    const plan = setup.planSetup({ agents: agents as typeof setup.AGENT_IDS[number][], scope: flags.global ? 'global' : 'project', root, remove: flags.remove, server, env, why });
    const written = flags['dry-run'] ? [] : setup.applySetup(plan);
    if (flags.json) {
      this.log(JSON.stringify({ ...plan, dry_run: flags['dry-run'], written, changes: plan.changes.map(({ before: _b, ...c }) => c) }, null, 2));
      return;
    }
    const { renderSetup } = await import('../render-setup');
    this.log(renderSetup(plan, { dryRun: flags['dry-run'], remove: flags.remove }));
  }
}
