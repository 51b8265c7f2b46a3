/**
 * A session's tool surface: which preset it runs (`GORTEX_TOOLS` > `--tools` > config `mcp.tools`
 * > client-aware default > `core`), what it lists, what it may call, and how `tools_search`
 * widens it. Transport-neutral: the MCP server supplies the client's name and the list-changed
 * notification.
 */
import type { ConfigTools } from '../config/config';
import { gortexHome } from '../support/home';
import { profilePreset, sessionProfile } from '../tools/profiles';
import { FACADE_PRESET, PresetError, resolveSurface, type ToolSurface } from '../tools/presets';
import type { SessionStore } from '../workspace/session-store';
import type { SessionSurface, ToolFamily } from '../workspace/context';
import { callableTools, FACADE_TOOLS, REGISTRY_TOOLS } from './surface';
import type { ToolDef } from '../tools/registry';

/** Clients that get GCX1 unless a call asks for JSON (names normalised: lowercase, `-` for spaces). */
const GCX_CLIENTS = ['claude-code', 'cursor', 'vscode', 'visual-studio-code', 'zed', 'aider', 'kilocode', 'opencode', 'openclaw', 'codex', 'omp-coding-agent', 'pi'];

/** Whether a client's self-reported name is a known coding client (answered in GCX1 by default). */
export function isGcxClient(name: string | undefined): boolean {
  const n = (name ?? '').trim().toLowerCase().replace(/\s+/g, '-');
  return n !== '' && GCX_CLIENTS.some((c) => n === c || n.startsWith(`${c}-`));
}

/** Where a session's tool spec may come from. */
export interface SurfaceOptions {
  /** Tool spec (`"preset,+add,-remove"` or an allow-list) from `--tools`; `GORTEX_TOOLS` wins over it. */
  tools?: string;
  /** `--tools-mode`: the mode of whichever spec is chosen; `GORTEX_TOOLS_MODE` wins over it. */
  toolsMode?: string;
  /** `mcp.tools` from `.gortex.yaml` or the global config, below the env and the flag. */
  config?: ConfigTools;
}

/** The active instruction profile's preset as a spec, when it carries one. */
function profileSpec(): { spec: string; source: string } | undefined {
  // The home is the process's (like the sidecar's), whatever environment the session was given for its tools.
  const profile = sessionProfile(gortexHome());
  const preset = profilePreset(profile.name);
  return preset === undefined ? undefined : { spec: preset, source: `instruction profile ${profile.name}` };
}

/** A spec with its `:defer`/`:hide` suffix replaced by `mode` (when one is given). */
export function withMode(spec: string | undefined, mode: string | undefined): string | undefined {
  if (mode === undefined) return spec;
  if (mode !== 'defer' && mode !== 'hide') throw new PresetError(`tools mode must be defer or hide, got ${JSON.stringify(mode)}`);
  return `${(spec ?? 'core').replace(/:(defer|hide)$/, '')}:${mode}`;
}

/** Whether `GORTEX_LAZY_TOOLS` asks for the legacy lazy surface (1/true/on/yes; 0/false/off/no or unset do not). */
export function lazyToolsRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.GORTEX_LAZY_TOOLS?.trim().toLowerCase() ?? '';
  if (value === '' || ['0', 'false', 'off', 'no'].includes(value)) return false;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  throw new PresetError(`GORTEX_LAZY_TOOLS must be 1 or 0 (true/false, on/off), got ${JSON.stringify(env.GORTEX_LAZY_TOOLS)}`);
}

/**
 * The tool spec a session starts from and where it came from: `GORTEX_TOOLS` >
 * `GORTEX_LAZY_TOOLS=1` (the `lazy` preset) > `--tools` > config `mcp.tools` > the machine's
 * instruction profile (when it carries a preset); undefined when none is set (the client-aware or
 * server default applies). `GORTEX_TOOLS_MODE` > `--tools-mode` then sets its mode.
 */
export function chosenSpec(options: SurfaceOptions, env: NodeJS.ProcessEnv = process.env): { spec: string; source: string } | undefined {
  const mode = env.GORTEX_TOOLS_MODE?.trim() ? env.GORTEX_TOOLS_MODE.trim() : options.toolsMode;
  const envSpec = env.GORTEX_TOOLS?.trim() ? env.GORTEX_TOOLS : undefined;
  const picked =
    envSpec !== undefined
      ? { spec: envSpec, source: 'GORTEX_TOOLS' }
      : lazyToolsRequested(env)
        ? { spec: 'lazy', source: 'GORTEX_LAZY_TOOLS' }
        : options.tools !== undefined
          ? { spec: options.tools, source: '--tools' }
          : options.config
            ? { spec: options.config.spec, source: options.config.source }
            : profileSpec();
  if (mode === undefined) return picked;
  return { spec: withMode(picked?.spec, mode)!, source: picked ? `${picked.source} + mode ${mode}` : `default + mode ${mode}` };
}

/** Resolves a spec over the composed surface (throws `PresetError` for a spec that cannot be honoured). */
export function resolveSpec(spec: string | undefined, source?: string): ToolSurface {
  return resolveSurface(spec, REGISTRY_TOOLS, source, FACADE_TOOLS);
}

/** A session surface plus what its transport needs to list it. */
export interface ListedSurface extends SessionSurface {
  /** The tools `tools/list` shows now, in registry order. */
  listed(): ToolDef[];
}

/**
 * The surface of one session. `explicit` is the chosen spec (validated now, so a typo fails at
 * start-up); without one, a client that names itself (`clientName()`, read once the surface is
 * first needed, i.e. after `initialize`) gets the compact surface, others `core`.
 */
export function sessionSurface(options: {
  explicit: { spec: string; source: string } | undefined;
  clientName: () => string | undefined;
  store?: SessionStore;
  /** Tells the client its tool list changed (after `tools_search` promoted tools). */
  onListChanged: () => void;
}): ListedSurface {
  const { explicit } = options;
  if (explicit !== undefined) resolveSpec(explicit.spec, 'check');
  let settled: ToolSurface | undefined;
  const now = (): ToolSurface => {
    if (settled) return settled;
    if (explicit !== undefined) settled = resolveSpec(explicit.spec, explicit.source);
    else if (options.clientName()?.trim()) settled = resolveSpec(FACADE_PRESET, 'client-aware default');
    else settled = resolveSpec(undefined, 'default');
    return settled;
  };
  const family = (): ToolFamily => (now().preset === FACADE_PRESET ? 'facade' : 'registry');
  // Defer mode keeps every tool reachable (listed or not); hide mode allows only the live set.
  const reachable = (): ReadonlySet<string> => new Set(callableTools(family()).map((t) => t.name));
  return {
    ...(options.store ? { store: options.store } : {}),
    get preset() {
      return now().preset;
    },
    get mode() {
      return now().mode;
    },
    get family() {
      return family();
    },
    get source() {
      return now().source;
    },
    live: () => now().live,
    allowed: () => (now().mode === 'defer' ? reachable() : now().live),
    promote: (names) => {
      const known = reachable();
      const live = now().live;
      const added = names.filter((n) => known.has(n) && !live.has(n));
      for (const n of added) live.add(n);
      if (added.length > 0) options.onListChanged();
      return added;
    },
    listed: () => callableTools(family()).filter((t) => now().live.has(t.name)),
  };
}
