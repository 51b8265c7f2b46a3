/**
 * Instruction profiles: `gortex instructions` switches the machine's profile; new MCP sessions
 * (a real `gortex mcp` over stdio) send its text and start from its preset, below an explicit spec.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureCopy, tempHome } from './helpers/repo';
import { runCli, unwrapCliError } from './helpers/cli';
import { okJson, startStdio } from './helpers/mcp';

describe('instruction profiles', () => {
  const home = tempHome();
  const root = fixtureCopy('query/app-ts', 'profapp');
  const cli = (...args: string[]) => runCli(args, { env: { GORTEX_HOME: home } });

  test('list, show and switch; a bad name changes nothing', () => {
    expect(cli('instructions', 'list').stdout).toMatch(/^\* core /m);
    const bad = cli('instructions', 'switch', 'verbose');
    expect(bad.status).toBe(2);
    expect(unwrapCliError(bad.stderr)).toBe('unknown instruction profile "verbose"; the profiles are core, localization, full');
    expect(fs.existsSync(path.join(home, 'instructions.json'))).toBe(false);
    expect(cli('instructions', 'switch', 'localization').stdout).toMatch(/^Instruction profile: localization \(tool preset localization\)/);
    const shown = JSON.parse(cli('instructions', 'show', '--json').stdout);
    expect(shown).toMatchObject({ profile: 'localization', active: true, preset: 'localization' });
    expect(shown.instructions).toContain('Tools: explore, smart_context, index_health, search_symbols');
    expect(JSON.parse(cli('instructions', 'show', 'core', '--json').stdout)).toMatchObject({ profile: 'core', active: false, preset: null });
  });

  test('a new session gets the profile text and preset; an explicit --tools still wins', async () => {
    // `instructions switch localization` ran above (same home).
    const client = await startStdio(root, '', { GORTEX_HOME: home });
    try {
      expect(client.getInstructions()).toMatch(/^gortex \(localization profile\)/);
      const profile = await okJson(client, 'tool_profile', {});
      expect(profile).toMatchObject({ preset: 'localization', source: 'instruction profile localization' });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('smart_context');
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('edit_file');
    } finally {
      await client.close();
    }
    const explicit = await startStdio(root, 'core', { GORTEX_HOME: home });
    try {
      expect((await okJson(explicit, 'tool_profile', {})).preset).toBe('core');
      expect(explicit.getInstructions()).toMatch(/^gortex \(localization profile\)/);
    } finally {
      await explicit.close();
    }
  });

  test('a damaged profile file falls back to core for sessions and is reported by the CLI', async () => {
    fs.writeFileSync(path.join(home, 'instructions.json'), '{"profile": "loud"}');
    const shown = cli('instructions', 'show');
    expect(shown.status).toBe(2);
    expect(unwrapCliError(shown.stderr)).toMatch(/names profile "loud", not one of core, localization, full/);
    const client = await startStdio(root, '', { GORTEX_HOME: home });
    try {
      expect(client.getInstructions()).toMatch(/^gortex answers code questions/);
    } finally {
      await client.close();
    }
  });
});
