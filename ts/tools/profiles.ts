/**
 * Instruction profiles: the text an MCP session's `initialize` answer carries as `instructions`,
 * and optionally the tool preset it starts from. The machine's active profile is
 * `<gortex home>/instructions.json` (`gortex instructions switch`); new sessions read it, running
 * ones keep theirs. Precedence of the preset: `GORTEX_TOOLS` / `--tools` > `mcp.tools` config >
 * the active profile > the client-aware default > `core`. `core` carries no preset, so nothing
 * changes until a machine switches. The `localization` text lists the localization preset's own
 * tools, so the surface and its instructions cannot drift.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../support/atomic-write';
import { gortexHome } from '../support/home';
import { UsageError } from '../support/usage-error';
import { presetTools } from './presets';

/** The profiles, in the order `gortex instructions list` shows them. */
export const INSTRUCTION_PROFILES = ['core', 'localization', 'full'] as const;
export type InstructionProfile = (typeof INSTRUCTION_PROFILES)[number];

/** The options every tool takes, said once in every profile's text. */
const COMMON_OPTIONS =
  'Every tool also takes format: "json" | "gcx" (GCX1: tab-separated rows under a GCX1 header, ~40% fewer tokens), ' +
  'max_bytes / max_tokens (the main list is paged; _page.next_cursor fetches more with cursor), ' +
  'if_none_match (the etag in _meta of an earlier answer; unchanged answers say not_modified), and ' +
  'repo / project / scope (run on those repositories of the workspace and merge the answers).';

/** What each profile is for, its preset and its text. */
const PROFILES: Record<InstructionProfile, { summary: string; preset?: string; text: () => string }> = {
  core: {
    summary: 'The everyday dev cycle (no preset: the session keeps its default surface).',
    text: () =>
      'gortex answers code questions from a graph of this repository: search_symbols / search_text / ' +
      'find_files to locate code, get_symbol_source to read it, get_callers / find_usages / get_dependents ' +
      'before changing it. surface_memories recalls decisions and invariants about what you are looking at; ' +
      'store_memory keeps new ones. Rows carry provenance tiers; heed caveats. tools_search finds tools not listed yet. ' +
      COMMON_OPTIONS,
  },
  localization: {
    summary: 'Finding where the code for a task lives: a small read-only surface.',
    preset: 'localization',
    text: () =>
      'gortex (localization profile) finds where the code for a task lives. Start with explore (the task in words) ' +
      'or smart_context, narrow with search_symbols / search_text, confirm by reading one symbol (get_symbol_source, ' +
      'batch_symbols) or a file summary, and follow references (find_usages, get_callers, find_implementations). ' +
      `Tools: ${(presetTools('localization') ?? []).join(', ')}. ` +
      COMMON_OPTIONS,
  },
  full: {
    summary: 'Every tool listed up front (the full preset).',
    preset: 'full',
    text: () =>
      'gortex serves a graph of this repository with every tool listed: navigation and search, reading, editing and ' +
      'refactoring (edits are parse-gated and atomic), analyses, review and pull requests, overlays, memory, and the ' +
      'workspace. Locate with explore / search_symbols, read with get_symbol_source, check get_callers / find_usages ' +
      'before a change and verify_change / get_test_targets after it. Rows carry provenance tiers; heed caveats. ' +
      COMMON_OPTIONS,
  },
};

/** Where the active profile is kept. */
export function profileFile(home: string = gortexHome()): string {
  return path.join(home, 'instructions.json');
}

function isProfile(name: string): name is InstructionProfile {
  return (INSTRUCTION_PROFILES as readonly string[]).includes(name);
}

/** A profile by name (aliases: none), or a `UsageError` listing the names. */
export function profileNamed(name: string): InstructionProfile {
  const key = name.trim().toLowerCase();
  if (!isProfile(key)) throw new UsageError(`unknown instruction profile "${name}"; the profiles are ${INSTRUCTION_PROFILES.join(', ')}`);
  return key;
}

/** The machine's active profile and where it came from (`default` when none was switched to). */
export function activeProfile(home: string = gortexHome()): { name: InstructionProfile; source: string } {
  const file = profileFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { name: 'core', source: 'default' };
  }
  let name: unknown;
  try {
    name = (JSON.parse(text) as { profile?: unknown }).profile;
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON (${(e as Error).message}); run gortex instructions switch core to rewrite it`);
  }
  if (typeof name !== 'string' || !isProfile(name)) {
    throw new UsageError(`${file} names profile ${JSON.stringify(name)}, not one of ${INSTRUCTION_PROFILES.join(', ')}; run gortex instructions switch <profile>`);
  }
  return { name, source: file };
}

/** The active profile for a new session: a broken profile file falls back to `core` (and says why). */
export function sessionProfile(home: string = gortexHome()): { name: InstructionProfile; source: string; warning?: string } {
  try {
    return activeProfile(home);
  } catch (e) {
    return { name: 'core', source: 'default', warning: (e as Error).message };
  }
}

/** Makes `name` the machine's active profile (for sessions started from now on). */
export function switchProfile(name: InstructionProfile, home: string = gortexHome()): void {
  fs.mkdirSync(home, { recursive: true });
  writeFileAtomic(profileFile(home), `${JSON.stringify({ profile: name, switched_at: new Date().toISOString() })}\n`);
}

/** A profile's instructions text. */
export function profileInstructions(name: InstructionProfile): string {
  return PROFILES[name].text();
}

/** A profile's tool preset (undefined: it leaves the surface alone). */
export function profilePreset(name: InstructionProfile): string | undefined {
  return PROFILES[name].preset;
}

/** A profile's one-line summary. */
export function profileSummary(name: InstructionProfile): string {
  return PROFILES[name].summary;
}
