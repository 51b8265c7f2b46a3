/**
 * Tool presets: which tools a session lists (live), which it keeps deferred (reachable through
 * `tools_search`), and which it hides. A spec is `"preset,+add,-remove"` or a bare allow-list;
 * precedence is `GORTEX_TOOLS` > `--tools` > the server default (`core`, defer). Presets name only
 * tools that exist: a preset's tools that are not built yet are simply absent. `facade-v1`
 * (`compact`) is the closed 21-tool domain surface of `facade.ts`.
 */

/** How tools outside the allowed set are treated. */
export type PresetMode = 'defer' | 'hide';

interface PresetDef {
  aliases: readonly string[];
  /** `null`: every tool (filtered by `filter`). */
  tools: readonly string[] | null;
  mode: PresetMode;
  /** Keeps only tools passing it (e.g. read-only ones). */
  filter?: (tool: { name: string; effect: string }) => boolean;
}

/** Tools every deferred surface keeps so the rest stays discoverable. */
export const ALWAYS_LIVE = ['tools_search', 'tool_profile'] as const;

const PRESETS: Record<string, PresetDef> = {
  core: {
    aliases: ['default', 'classic'],
    mode: 'defer',
    tools: [
      'explore', 'smart_context', 'get_repo_outline', 'graph_stats', 'index_health',
      'search_symbols', 'search_text', 'find_files', 'find_usages', 'find_implementations', 'get_callers',
      'get_call_chain', 'get_dependencies', 'get_dependents',
      'read_file', 'get_symbol', 'get_symbol_source', 'get_file_summary', 'get_editing_context',
      'edit_file', 'edit_symbol', 'write_file', 'batch_edit', 'rename_symbol',
      'verify_change', 'get_diagnostics', 'check_guards', 'get_test_targets', 'analyze',
      'detect_changes', 'diff_context', 'review',
      'surface_memories', 'store_memory', 'save_note',
    ],
  },
  agent: {
    aliases: ['coding-agent'],
    mode: 'defer',
    tools: [
      'explore', 'smart_context', 'index_health', 'search_symbols', 'find_usages', 'find_implementations',
      'get_callers', 'get_call_chain', 'get_dependencies', 'get_dependents', 'get_symbol_source', 'batch_symbols',
      'get_file_summary', 'get_editing_context', 'read_file', 'edit_file', 'write_file', 'verify_change',
    ],
  },
  full: { aliases: ['all'], mode: 'defer', tools: null },
  readonly: { aliases: [], mode: 'hide', tools: null, filter: (t) => t.effect === 'read' },
  edit: {
    aliases: ['editor', 'edit-harness'],
    mode: 'hide',
    tools: [
      'smart_context', 'get_editing_context', 'read_file', 'get_symbol_source', 'get_file_summary', 'get_symbol',
      'search_symbols', 'search_text', 'find_files', 'find_usages', 'get_callers',
      'edit_file', 'edit_symbol', 'write_file', 'batch_edit', 'rename_symbol', 'move_symbol', 'inline_symbol', 'safe_delete_symbol',
      'verify_change', 'preview_edit', 'get_test_targets', 'check_guards', 'get_diagnostics', 'graph_stats',
    ],
  },
  nav: {
    aliases: ['navigate', 'explore'],
    mode: 'hide',
    tools: null,
    filter: (t) => t.effect === 'read',
  },
  // `GORTEX_LAZY_TOOLS=1`, the older all-or-nothing switch: every tool deferred but a fixed hot
  // set of reads, whatever the preset (`core` in defer mode supersedes it for the common case).
  lazy: {
    aliases: [],
    mode: 'defer',
    tools: [
      'search_symbols', 'search_text', 'find_files', 'get_symbol', 'get_symbol_source', 'get_file_summary',
      'read_file', 'get_callers', 'find_usages', 'get_call_chain', 'smart_context', 'explore',
    ],
  },
  localization: {
    aliases: ['locate', 'find'],
    mode: 'defer',
    tools: [
      'explore', 'smart_context', 'index_health', 'search_symbols', 'search_text', 'find_usages', 'get_callers',
      'find_implementations', 'get_symbol_source', 'batch_symbols', 'get_file_summary', 'read_file',
    ],
  },
};

/** The tools a preset names (`null`: every tool, or its name is unknown). */
export function presetTools(name: string): readonly string[] | null {
  return PRESETS[name]?.tools ?? null;
}

/** The compact surface and its aliases: a closed set of 21 domain tools (allow/deny ignored). */
export const FACADE_PRESET = 'facade-v1';
const FACADE_ALIASES = ['facade-v1', 'compact', 'facade', 'agent-v2'];

/** Whether a spec selects the compact surface. */
export function isFacadeSpec(spec: string | undefined): boolean {
  const first = (spec ?? '').split(',')[0]!.replace(/:(defer|hide)$/, '').trim().toLowerCase();
  return FACADE_ALIASES.includes(first);
}

/** The canonical preset name for a name or alias, or undefined. */
export function presetName(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  if (PRESETS[key]) return key;
  return Object.keys(PRESETS).find((p) => PRESETS[p]!.aliases.includes(key));
}

/** Every preset with its aliases and default mode. */
export function listPresets(): { name: string; aliases: readonly string[]; mode: PresetMode }[] {
  return [
    { name: FACADE_PRESET, aliases: FACADE_ALIASES.slice(1), mode: 'hide' as PresetMode },
    ...Object.entries(PRESETS).map(([name, p]) => ({ name, aliases: p.aliases, mode: p.mode })),
  ];
}

/** A resolved tool surface. */
export interface ToolSurface {
  /** The preset it started from (`custom` for a bare allow-list). */
  preset: string;
  mode: PresetMode;
  /** Tools listed in a cold `tools/list`. */
  live: Set<string>;
  /** Where the spec came from: `GORTEX_TOOLS`, `--tools` or `default`. */
  source: string;
}

/** A spec the user wrote that cannot be honoured. */
export class PresetError extends Error {
  override name = 'PresetError';
}

/**
 * Resolves a spec against the registry's tools. `spec` undefined → the server default (`core`).
 * A trailing `:defer` / `:hide` overrides the preset's mode (`"edit:defer"`).
 */
export function resolveSurface(
  spec: string | undefined,
  tools: readonly { name: string; effect: string }[],
  source = spec === undefined ? 'default' : 'spec',
  facade: readonly { name: string }[] = [],
): ToolSurface {
  if (isFacadeSpec(spec)) {
    // Closed: exactly the domain tools, whatever else the spec says.
    return { preset: FACADE_PRESET, mode: 'hide', live: new Set(facade.map((t) => t.name)), source };
  }
  const known = new Set(tools.map((t) => t.name));
  let text = (spec ?? 'core').trim();
  let modeOverride: PresetMode | undefined;
  const modeMatch = /:(defer|hide)$/.exec(text);
  if (modeMatch) {
    modeOverride = modeMatch[1] as PresetMode;
    text = text.slice(0, -modeMatch[0].length);
  }
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new PresetError(`empty tool spec; use a preset (${Object.keys(PRESETS).join(', ')}) or a list of tool names`);
  const first = parts[0]!;
  const unknownTool = (name: string): never => {
    throw new PresetError(`unknown tool "${name}" in tool spec "${spec}"; tools: ${[...known].join(', ')}`);
  };
  let preset = 'custom';
  let mode: PresetMode = 'hide';
  const live = new Set<string>();
  const canonical = !first.startsWith('+') && !first.startsWith('-') ? presetName(first) : undefined;
  if (canonical) {
    const def = PRESETS[canonical]!;
    preset = canonical;
    mode = def.mode;
    for (const t of tools) {
      if ((def.tools === null || def.tools.includes(t.name)) && (!def.filter || def.filter(t))) live.add(t.name);
    }
  } else if (first.startsWith('+') || first.startsWith('-')) {
    preset = 'core';
    mode = PRESETS.core!.mode;
    for (const t of tools) if (PRESETS.core!.tools!.includes(t.name)) live.add(t.name);
    parts.unshift('core');
  } else {
    // A bare allow-list.
    for (const name of parts) {
      if (!known.has(name)) unknownTool(name);
      live.add(name);
    }
  }
  if (preset !== 'custom') {
    for (const p of parts.slice(1)) {
      const name = p.slice(1).trim();
      if (!p.startsWith('+') && !p.startsWith('-')) {
        throw new PresetError(`"${p}" in tool spec "${spec}" must start with + (add) or - (remove) after the preset`);
      }
      if (!known.has(name)) unknownTool(name);
      if (p.startsWith('+')) live.add(name);
      else live.delete(name);
    }
  }
  mode = modeOverride ?? mode;
  if (mode === 'defer') for (const name of ALWAYS_LIVE) if (known.has(name)) live.add(name);
  return { preset, mode, live, source };
}
