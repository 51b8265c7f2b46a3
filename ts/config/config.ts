/**
 * Configuration files: `.gortex.yaml` (or `.gortex.yml`) at the repository root and the user's
 * global `config.yaml` (`$XDG_CONFIG_HOME/gortex/config.yaml` when `XDG_CONFIG_HOME` is an absolute
 * path, else `~/.gortex/config.yaml`). Both are optional. This version acts on `mcp.tools` (the
 * tool surface: the repository's file wins over the global one), `exclude` / `index.exclude`
 * (gitignore-style patterns; both files add up), `respect_gitignore`, `index.max_file_size`, and
 * the global file's `daemon.http_addr`, `daemon.allowed_roots` and `daemon.max_memory`, and `lsp.<language>` (the
 * language server to run: the global file's always, the repository's only when the global file
 * sets `lsp.allow_repo_commands: true`, because a cloned repository must not choose what runs),
 * the global file's `llm` (an OpenAI-compatible model endpoint; a repository's is ignored, since
 * it must not choose where its code is sent), and the repository's `artifacts` (context files for
 * `search_artifacts` / `get_artifact`);
 * every other key the original's schema knows is accepted with a warning that it is not used yet,
 * and unknown keys are warned about with the known ones listed. A file that is not valid YAML, or a value of the wrong type
 * under a key that is used, is an error naming the file, the key and the fix.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { parseByteSize } from '../support/format';

/** A configuration problem the user has to fix (exit code 2 at the CLI). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Top-level keys of `.gortex.yaml`. */
const REPO_KEYS = [
  'exclude', 'include', 'rule_files', 'respect_gitignore', 'workspace', 'project', 'projects', 'cross_workspace_deps',
  'index', 'watch', 'query', 'scope', 'search', 'embedding', 'mcp', 'guards', 'federation', 'architecture', 'events',
  'artifacts', 'queries', 'semantic', 'llm', 'review', 'lsp',
] as const;
/** Top-level keys of the global `config.yaml`. */
const GLOBAL_KEYS = ['repos', 'projects', 'active_project', 'exclude', 'llm', 'embedding', 'daemon', 'mcp', 'review', 'lsp'] as const;
/** Keys under `mcp` (`allow_embedded` is user-level only in the original). */
const MCP_KEYS = ['tools', 'allow_embedded'] as const;
/** Keys under `mcp.tools`. */
const TOOLS_KEYS = ['preset', 'mode', 'allow', 'deny'] as const;
/** Keys under `index` (the original's schema). */
const INDEX_KEYS = [
  'languages', 'exclude', 'workers', 'max_file_size', 'max_parse_bytes_in_flight', 'index_minified', 'index_generated_parsers',
  'crash_isolation', 'merkle', 'max_extract_millis', 'synthesize_external_calls', 'synthesize_speculative_dispatch',
  'scoped_global_passes', 'affected_by_reresolve_max', 'coverage',
] as const;
/** Keys this version acts on. */
const USED = new Set(['mcp', 'mcp.tools', 'exclude', 'respect_gitignore', 'index', 'index.exclude', 'index.max_file_size', 'daemon', 'daemon.http_addr', 'daemon.allowed_roots', 'daemon.max_memory', 'daemon.memory_limit', 'workspace', 'guards', 'guards.rules', 'lsp', 'llm', 'artifacts', 'queries']);
/** Keys of one `artifacts` entry, and the kinds an artifact may be. */
const ARTIFACT_KEYS = ['id', 'path', 'kind', 'description'] as const;
export const ARTIFACT_KINDS = ['schema', 'api', 'infra', 'adr', 'doc', 'config', 'other'] as const;
/** Keys under `llm` (global config). */
const LLM_KEYS = ['endpoint', 'model', 'api_key_env', 'timeout_ms'] as const;
/** Keys of one `queries` entry (a named detector bundle, `analyze kind=named`). */
const QUERY_KEYS = ['name', 'description', 'detectors', 'categories', 'min_severity'] as const;
/** Keys of one guard rule. */
const GUARD_KEYS = ['name', 'kind', 'source', 'target', 'message', 'severity', 'except'] as const;
/** Keys under `daemon` (global config). */
const DAEMON_KEYS = ['http_addr', 'allowed_roots', 'max_memory', 'memory_limit', 'socket'] as const;

/** What indexing takes from the config files. */
export interface ConfigIndex {
  /** Gitignore-style patterns: top-level `exclude` and `index.exclude` of both files. */
  exclude: string[];
  /** `respect_gitignore` (the repository's file wins). */
  respectGitignore?: boolean;
  /** `index.max_file_size` in bytes (the repository's file wins). */
  maxFileSize?: number;
}

/** The tool surface a config file asks for. */
export interface ConfigTools {
  /** A tool spec in `"preset,+add,-remove[:mode]"` form. */
  spec: string;
  /** The file (and key) it came from, for `tool_profile`. */
  source: string;
}

/** Both configuration files, read and checked. */
export interface LoadedConfig {
  /** Files that exist and were read. */
  files: string[];
  warnings: string[];
  /** `mcp.tools`, from the repository's file, else the global one. */
  tools?: ConfigTools;
  index: ConfigIndex;
  /** `daemon.http_addr` of the global config: where the daemon serves HTTP when no flag or env says. */
  daemonHttpAddr?: string;
  /** `mcp.allow_embedded` of the global config (user-level only): `gortex mcp --server` may run. */
  allowEmbedded: boolean;
  /**
   * `daemon.allowed_roots` of the global config: the only directories (absolute, `~` expanded, as
   * written — real paths are resolved when compared) the daemon may track repositories in; absent:
   * anywhere.
   */
  allowedRoots?: AllowedRoots;
  /** `daemon.max_memory` of the global config in bytes: the daemon's memory ceiling (`GORTEX_MAX_MEMORY` wins). */
  maxMemory?: number;
  /** The key it was written under (`memory_limit` is the older spelling). */
  maxMemoryKey?: 'max_memory' | 'memory_limit';
  /** `workspace` of the repository's file: the slug the daemon's server roster routes by. */
  workspace?: string;
  /** `guards.rules` of the repository's file. */
  guards?: GuardRule[];
  /** `queries` of the repository's file: named detector bundles for `analyze kind=named`. */
  queries?: NamedQuerySetting[];
  /** `lsp.<language>` settings by language (the repository's over the global's, when allowed). */
  lsp: Record<string, LspSetting>;
  /** `lsp.enrich`: run the semantic-enrichment pass (the repository's over the global's); absent: not set. */
  lspEnrich?: boolean;
  /** `artifacts` of the repository's file: the context artifacts (schemas, API specs, ADRs…) it registers. */
  artifacts?: ArtifactSetting[];
  /** `llm` of the global config (user-level only: a repository must not choose where its code is sent). */
  llm?: LlmSetting;
}

/** One `queries` entry: a named bundle of detectors (ids and rule categories the engine checks). */
export interface NamedQuerySetting {
  name: string;
  description?: string;
  detectors?: string[];
  categories?: string[];
  min_severity?: string;
}

/** One `artifacts` entry: a file or a glob of files, with what kind of context it is. */
export interface ArtifactSetting {
  /** The artifact's id (a glob entry's files take their ids from their names). */
  id?: string;
  /** Repository-relative path or glob (`docs/adr/*.md`). */
  path: string;
  kind: (typeof ARTIFACT_KINDS)[number];
  description?: string;
  /** `file:line` of the entry. */
  at: string;
}

/** An OpenAI-compatible chat-completions endpoint (`llm:` of the global config). */
export interface LlmSetting {
  /** Base URL, up to `/v1` (`/chat/completions` is appended). */
  endpoint: string;
  model: string;
  /** Name of the environment variable holding the API key (the key itself is never written in a file). */
  apiKeyEnv?: string;
  timeoutMs: number;
  /** `file:line` of the setting. */
  source: string;
}

/** One language's `lsp.<language>` setting. */
export interface LspSetting {
  /** The server's command and arguments (`command: "pyright-langserver --stdio"` or a list). */
  command?: string[];
  /** `enabled: false` turns the language's server off. */
  enabled: boolean;
  /** `file:line` of the setting, for messages. */
  source: string;
}

/**
 * One rule of `guards.rules` (`check_guards`): `boundary` — code under `source` must not depend on
 * code under `target`; `co-change` — a change under `source` needs a change under `target` too.
 * Paths are globs or path prefixes.
 */
export interface GuardRule {
  name: string;
  kind: 'boundary' | 'co-change';
  source: string[];
  target: string[];
  message?: string;
  severity: 'error' | 'warn' | 'info';
  /** Paths on the source side the rule does not apply to. */
  except: string[];
  /** `file:line` of the rule. */
  at: string;
}

/** `daemon.allowed_roots`: the directories, and where they were written (for messages). */
export interface AllowedRoots {
  dirs: string[];
  /** `file:line` of the key. */
  source: string;
}

/** The global config file's path for an environment. */
export function globalConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'gortex', 'config.yaml');
  return path.join(env.HOME ?? os.homedir(), '.gortex', 'config.yaml');
}

/** The repository config file under `root`, if one exists (`.gortex.yaml` before `.gortex.yml`). */
export function repoConfigPath(root: string): string | undefined {
  for (const name of ['.gortex.yaml', '.gortex.yml']) {
    const p = path.join(root, name);
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/** Reads both files; throws `ConfigError` for YAML errors and wrong types under used keys. */
export function loadConfig(root: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const out: LoadedConfig = { files: [], warnings: [], index: { exclude: [] }, allowEmbedded: false, lsp: Object.create(null) as Record<string, LspSetting> };
  const repoFile = root === undefined ? undefined : repoConfigPath(root);
  const globalFile = globalConfigPath(env);
  const repo = repoFile === undefined ? undefined : readYaml(repoFile);
  const global = fs.existsSync(globalFile) ? readYaml(globalFile) : undefined;
  let repoTools: ConfigTools | undefined;
  let globalTools: ConfigTools | undefined;
  // Global first, so the repository's scalar settings override it; exclude lists add up.
  if (global) {
    out.files.push(global.file);
    globalTools = check(global, GLOBAL_KEYS, out.warnings, 'global');
    out.allowEmbedded = allowEmbedded(global);
    indexSettings(global, out.index, out.warnings);
    const daemon = daemonSettings(global, out.warnings, env);
    if (daemon.httpAddr !== undefined) out.daemonHttpAddr = daemon.httpAddr;
    if (daemon.allowedRoots !== undefined) out.allowedRoots = daemon.allowedRoots;
    if (daemon.maxMemory !== undefined) {
      out.maxMemory = daemon.maxMemory;
      out.maxMemoryKey = daemon.maxMemoryKey ?? 'max_memory';
    }
    lspSettings(global, out.lsp, out.warnings, true, globalFile, (enrich) => (out.lspEnrich = enrich));
    const llm = llmSetting(global, out.warnings);
    if (llm) out.llm = llm;
  }
  if (repo) {
    out.files.unshift(repo.file);
    repoTools = check(repo, REPO_KEYS, out.warnings, 'repository');
    indexSettings(repo, out.index, out.warnings);
    const ws = repo.data.workspace;
    if (ws !== undefined && ws !== null) {
      if (typeof ws !== 'string' || !/^[\w.-]{1,64}$/.test(ws)) {
        throw new ConfigError(`${where(repo, ['workspace'])}: workspace must be a slug (letters, digits, _ . -), got ${JSON.stringify(ws)}`);
      }
      out.workspace = ws;
    }
    if (repo.data.llm !== undefined) out.warnings.push(`${where(repo, ['llm'])}: llm of a repository file is ignored: set it in ${globalFile} (a repository must not choose where its code is sent)`);
    const artifacts = artifactSettings(repo, out.warnings);
    if (artifacts) out.artifacts = artifacts;
    const guards = guardRules(repo, out.warnings);
    if (guards) out.guards = guards;
    const queries = namedQueries(repo, out.warnings);
    if (queries) out.queries = queries;
    lspSettings(repo, out.lsp, out.warnings, global?.data.lsp !== null && typeof global?.data.lsp === 'object' && (global.data.lsp as Record<string, unknown>).allow_repo_commands === true, globalFile, (enrich) => (out.lspEnrich = enrich));
  }
  const tools = repoTools ?? globalTools;
  if (tools) out.tools = tools;
  return out;
}

interface YamlFile {
  file: string;
  data: Record<string, unknown>;
  doc: Document;
  lines: LineCounter;
}

function readYaml(file: string): YamlFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message}); fix its permissions or remove it`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = lines.linePos(e.pos[0]);
    throw new ConfigError(`${file}:${at.line}:${at.col}: not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return { file, data: {}, doc, lines };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`${file}: the top level must be a mapping of keys (like "mcp:"), got ${Array.isArray(data) ? 'a list' : typeof data}`);
  }
  return { file, data: data as Record<string, unknown>, doc, lines };
}

/** `file:line` of a key (the line the key is written on), for messages. */
function where(y: YamlFile, keys: string[]): string {
  const parent = (keys.length === 1 ? y.doc.contents : y.doc.getIn(keys.slice(0, -1), true)) as
    | { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] }
    | null
    | undefined;
  const pair = parent?.items?.find((p) => p.key?.value === keys[keys.length - 1]);
  const pos = pair?.key?.range?.[0];
  return pos === undefined ? y.file : `${y.file}:${y.lines.linePos(pos).line}`;
}

function warnKeys(y: YamlFile, obj: Record<string, unknown>, known: readonly string[], prefix: string[], warnings: string[]): void {
  for (const key of Object.keys(obj)) {
    const keyPath = [...prefix, key].join('.');
    if (!known.includes(key)) {
      warnings.push(`${where(y, [...prefix, key])}: unknown key "${keyPath}"; known keys here: ${known.join(', ')} (ignored)`);
    } else if (!USED.has(keyPath)) {
      warnings.push(`${where(y, [...prefix, key])}: "${keyPath}" is not used by this version of gortex (ignored)`);
    }
  }
}

function stringList(y: YamlFile, value: unknown, keys: string[]): string[] {
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string')) {
    throw new ConfigError(`${where(y, keys)}: ${keys.join('.')} must be a list of tool names, like [find_files, analyze]`);
  }
  return list.map((t) => t.trim()).filter((t) => t !== '');
}

/** Reads and checks `artifacts` of the repository's file. */
function artifactSettings(y: YamlFile, warnings: string[]): ArtifactSetting[] | undefined {
  const list = y.data.artifacts;
  if (list === undefined || list === null) return undefined;
  const example = 'like "artifacts:\n  - id: db-schema\n    path: db/schema.sql\n    kind: schema\n    description: the Postgres schema"';
  const at = where(y, ['artifacts']);
  if (!Array.isArray(list)) throw new ConfigError(`${at}: artifacts must be a list of entries with path and kind, ${example}`);
  const ids = new Set<string>();
  return list.map((raw, i): ArtifactSetting => {
    const label = `${at}: artifacts[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${label} must be a mapping with path and kind, ${example}`);
    const r = raw as Record<string, unknown>;
    for (const key of Object.keys(r)) if (!(ARTIFACT_KEYS as readonly string[]).includes(key)) warnings.push(`${label}: unknown key "${key}"; known keys here: ${ARTIFACT_KEYS.join(', ')} (ignored)`);
    if (typeof r.path !== 'string' || r.path.trim() === '') throw new ConfigError(`${label}.path must be a repository-relative path or glob, ${example}`);
    const p = r.path.trim().replace(/^\.\//, '');
    if (p.startsWith('/') || p.split('/').includes('..')) throw new ConfigError(`${label}.path ${JSON.stringify(r.path)} must stay inside the repository (relative, without ..)`);
    const kind = r.kind ?? 'other';
    if (typeof kind !== 'string' || !(ARTIFACT_KINDS as readonly string[]).includes(kind)) throw new ConfigError(`${label}.kind must be one of ${ARTIFACT_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    if (r.id !== undefined && (typeof r.id !== 'string' || !/^[\w.-]{1,80}$/.test(r.id))) throw new ConfigError(`${label}.id must be a slug (letters, digits, _ . -)`);
    if (typeof r.id === 'string') {
      if (ids.has(r.id)) throw new ConfigError(`${label}.id ${JSON.stringify(r.id)} is used twice`);
      ids.add(r.id);
    }
    if (r.description !== undefined && typeof r.description !== 'string') throw new ConfigError(`${label}.description must be text`);
    return {
      ...(typeof r.id === 'string' ? { id: r.id } : {}),
      path: p,
      kind: kind as ArtifactSetting['kind'],
      ...(typeof r.description === 'string' ? { description: r.description } : {}),
      at: label,
    };
  });
}

/** Reads and checks `llm` of the global file. */
function llmSetting(y: YamlFile, warnings: string[]): LlmSetting | undefined {
  const llm = y.data.llm;
  if (llm === undefined || llm === null) return undefined;
  const example = 'like "llm:\n  endpoint: http://localhost:11434/v1\n  model: qwen2.5-coder\n  api_key_env: OPENAI_API_KEY"';
  if (typeof llm !== 'object' || Array.isArray(llm)) throw new ConfigError(`${where(y, ['llm'])}: llm must be a mapping with endpoint and model, ${example}`);
  warnKeys(y, llm as Record<string, unknown>, LLM_KEYS, ['llm'], warnings);
  const r = llm as Record<string, unknown>;
  const at = where(y, ['llm']);
  if (typeof r.endpoint !== 'string' || !/^https?:\/\/./.test(r.endpoint)) throw new ConfigError(`${at}: llm.endpoint must be an http(s) URL of an OpenAI-compatible API, ${example}`);
  if (typeof r.model !== 'string' || r.model.trim() === '') throw new ConfigError(`${at}: llm.model must name the model to ask, ${example}`);
  if (r.api_key_env !== undefined && (typeof r.api_key_env !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(r.api_key_env))) {
    throw new ConfigError(`${at}: llm.api_key_env must be the name of an environment variable holding the key (not the key itself)`);
  }
  if (r.timeout_ms !== undefined && (typeof r.timeout_ms !== 'number' || !Number.isInteger(r.timeout_ms) || r.timeout_ms < 1000 || r.timeout_ms > 600_000)) {
    throw new ConfigError(`${at}: llm.timeout_ms must be an integer from 1000 to 600000`);
  }
  return {
    endpoint: r.endpoint.replace(/\/+$/, ''),
    model: r.model.trim(),
    ...(r.api_key_env ? { apiKeyEnv: r.api_key_env as string } : {}),
    timeoutMs: (r.timeout_ms as number | undefined) ?? 120_000,
    source: at,
  };
}

/** Reads `queries` of the repository's file: each a mapping with a name and what it selects (the engine checks the ids). */
function namedQueries(y: YamlFile, warnings: string[]): NamedQuerySetting[] | undefined {
  const queries = y.data.queries;
  if (queries === undefined || queries === null) return undefined;
  const example = 'like "queries:\n  - name: db-safety\n    detectors: [sql-string-concat, loop-query]"';
  if (!Array.isArray(queries)) throw new ConfigError(`${where(y, ['queries'])}: queries must be a list of named bundles, ${example}`);
  return queries.map((raw, i): NamedQuerySetting => {
    const label = `${where(y, ['queries'])}: queries[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${label} must be a mapping with name and detectors or categories, ${example}`);
    const q = raw as Record<string, unknown>;
    for (const key of Object.keys(q)) {
      if (!(QUERY_KEYS as readonly string[]).includes(key)) warnings.push(`${label}: unknown key "${key}"; known keys here: ${QUERY_KEYS.join(', ')} (ignored)`);
    }
    if (typeof q.name !== 'string' || q.name.trim() === '') throw new ConfigError(`${label} needs a name`);
    const list = (key: 'detectors' | 'categories'): string[] | undefined => {
      const v = q[key];
      if (v === undefined || v === null) return undefined;
      const items = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(items) || !items.every((x) => typeof x === 'string' && x.trim() !== '')) throw new ConfigError(`${label}.${key} must be a list of names, ${example}`);
      return items.map((x: string) => x.trim());
    };
    const detectors = list('detectors');
    const categories = list('categories');
    for (const key of ['description', 'min_severity'] as const) {
      if (q[key] !== undefined && typeof q[key] !== 'string') throw new ConfigError(`${label}.${key} must be text`);
    }
    return {
      name: q.name.trim(),
      ...(typeof q.description === 'string' ? { description: q.description } : {}),
      ...(detectors ? { detectors } : {}),
      ...(categories ? { categories } : {}),
      ...(typeof q.min_severity === 'string' ? { min_severity: q.min_severity } : {}),
    };
  });
}

/** Reads and checks `guards.rules` of the repository's file. */
function guardRules(y: YamlFile, warnings: string[]): GuardRule[] | undefined {
  const guards = y.data.guards;
  if (guards === undefined || guards === null) return undefined;
  const example = 'like "guards:\n  rules:\n    - name: ui-not-db\n      kind: boundary\n      source: src/ui/\n      target: src/db/"';
  if (typeof guards !== 'object' || Array.isArray(guards)) throw new ConfigError(`${where(y, ['guards'])}: guards must be a mapping with rules, ${example}`);
  warnKeys(y, guards as Record<string, unknown>, ['rules'], ['guards'], warnings);
  const rules = (guards as Record<string, unknown>).rules;
  if (rules === undefined || rules === null) return [];
  if (!Array.isArray(rules)) throw new ConfigError(`${where(y, ['guards', 'rules'])}: guards.rules must be a list of rules, ${example}`);
  const at = where(y, ['guards', 'rules']);
  return rules.map((raw, i): GuardRule => {
    const label = `${at}: guards.rules[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${label} must be a mapping with name, kind, source and target`);
    const r = raw as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (!(GUARD_KEYS as readonly string[]).includes(key)) warnings.push(`${label}: unknown key "${key}"; known keys here: ${GUARD_KEYS.join(', ')} (ignored)`);
    }
    const paths = (value: unknown, key: string, required: boolean): string[] => {
      if (value === undefined || value === null) {
        if (required) throw new ConfigError(`${label} needs ${key}: a path, glob or list of them`);
        return [];
      }
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '')) {
        throw new ConfigError(`${label}.${key} must be a path, glob or list of them, like src/ui/ or "src/**/*.ts"`);
      }
      return list.map((p) => p.trim());
    };
    if (typeof r.name !== 'string' || r.name.trim() === '') throw new ConfigError(`${label} needs a name`);
    if (r.kind !== 'boundary' && r.kind !== 'co-change') throw new ConfigError(`${label}.kind must be boundary or co-change, got ${JSON.stringify(r.kind)}`);
    const severity = r.severity ?? 'error';
    if (severity !== 'error' && severity !== 'warn' && severity !== 'info') throw new ConfigError(`${label}.severity must be error, warn or info, got ${JSON.stringify(r.severity)}`);
    if (r.message !== undefined && typeof r.message !== 'string') throw new ConfigError(`${label}.message must be text`);
    return {
      name: r.name.trim(),
      kind: r.kind,
      source: paths(r.source, 'source', true),
      target: paths(r.target, 'target', true),
      ...(typeof r.message === 'string' ? { message: r.message } : {}),
      severity,
      except: paths(r.except, 'except', false),
      at: `${label} (${r.name.trim()})`,
    };
  });
}

/** The language servers `lsp.<name>` may configure: `typescript` serves JavaScript too, `cpp` serves C and C++. */
export const LSP_LANGUAGES = ['typescript', 'python', 'go', 'cpp', 'rust', 'java'] as const;

/**
 * Reads `lsp.<language>: {command, enabled}` into `into`. The global file's `allow_repo_commands`
 * decides whether a repository file may name a command: without it, a repository's command is
 * ignored with a warning (its `enabled: false` still counts: turning a server off runs nothing).
 */
function lspSettings(y: YamlFile, into: Record<string, LspSetting>, warnings: string[], isGlobalOrAllowed: boolean, globalFile: string, onEnrich: (enrich: boolean) => void): void {
  const lsp = y.data.lsp;
  if (lsp === undefined || lsp === null) return;
  const example = 'like "lsp:\n  python:\n    command: pyright-langserver --stdio"';
  if (typeof lsp !== 'object' || Array.isArray(lsp)) throw new ConfigError(`${where(y, ['lsp'])}: lsp must be a mapping of languages, ${example}`);
  for (const [language, raw] of Object.entries(lsp as Record<string, unknown>)) {
    if (language === 'allow_repo_commands' || language === 'enrich') {
      if (typeof raw !== 'boolean') throw new ConfigError(`${where(y, ['lsp', language])}: lsp.${language} must be true or false`);
      if (language === 'enrich') onEnrich(raw);
      continue;
    }
    const at = where(y, ['lsp', language]);
    if (!(LSP_LANGUAGES as readonly string[]).includes(language)) {
      warnings.push(`${at}: unknown language "lsp.${language}"; known: ${LSP_LANGUAGES.join(', ')}, allow_repo_commands, enrich (ignored)`);
      continue;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${at}: lsp.${language} must be a mapping with command and/or enabled, ${example}`);
    const r = raw as Record<string, unknown>;
    for (const key of Object.keys(r)) if (key !== 'command' && key !== 'enabled') warnings.push(`${at}: unknown key "lsp.${language}.${key}"; known keys here: command, enabled (ignored)`);
    if (r.enabled !== undefined && typeof r.enabled !== 'boolean') throw new ConfigError(`${at}: lsp.${language}.enabled must be true or false`);
    let command: string[] | undefined;
    if (r.command !== undefined && r.command !== null) {
      const list = typeof r.command === 'string' ? r.command.trim().split(/\s+/) : r.command;
      if (!Array.isArray(list) || list.length === 0 || !list.every((c) => typeof c === 'string' && c !== '')) {
        throw new ConfigError(`${at}: lsp.${language}.command must be a command line or a list of its words, like "gopls" or [clangd, --background-index]`);
      }
      command = list as string[];
      if (!isGlobalOrAllowed) {
        warnings.push(`${at}: lsp.${language}.command of a repository file is ignored: set lsp.allow_repo_commands: true in ${globalFile} to let repositories choose their language servers`);
        command = undefined;
      }
    }
    const previous = into[language];
    into[language] = {
      ...(command ?? previous?.command ? { command: command ?? previous!.command! } : {}),
      enabled: r.enabled === undefined ? (previous?.enabled ?? true) : r.enabled,
      source: at,
    };
  }
}

/** Reads `exclude`, `respect_gitignore` and `index.{exclude,max_file_size}` into `into`. */
function indexSettings(y: YamlFile, into: ConfigIndex, warnings: string[]): void {
  const patterns = (value: unknown, keys: string[]): string[] => {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
      throw new ConfigError(`${where(y, keys)}: ${keys.join('.')} must be a list of gitignore-style patterns, like [dist/, "*.gen.ts"]`);
    }
    return list.map((p) => p.trim()).filter((p) => p !== '');
  };
  if (y.data.exclude !== undefined && y.data.exclude !== null) into.exclude.push(...patterns(y.data.exclude, ['exclude']));
  if (y.data.respect_gitignore !== undefined) {
    if (typeof y.data.respect_gitignore !== 'boolean') {
      throw new ConfigError(`${where(y, ['respect_gitignore'])}: respect_gitignore must be true or false`);
    }
    into.respectGitignore = y.data.respect_gitignore;
  }
  const index = y.data.index;
  if (index === undefined || index === null) return;
  if (typeof index !== 'object' || Array.isArray(index)) throw new ConfigError(`${where(y, ['index'])}: index must be a mapping, like "index:\n  exclude: [dist/]"`);
  const ix = index as Record<string, unknown>;
  warnKeys(y, ix, INDEX_KEYS, ['index'], warnings);
  if (ix.exclude !== undefined && ix.exclude !== null) into.exclude.push(...patterns(ix.exclude, ['index', 'exclude']));
  if (ix.max_file_size !== undefined) {
    const n = ix.max_file_size;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 4_294_967_295) {
      throw new ConfigError(`${where(y, ['index', 'max_file_size'])}: index.max_file_size must be a byte count between 1 and 4294967295, got ${JSON.stringify(n)}`);
    }
    into.maxFileSize = n;
  }
}

/** The smallest memory ceiling accepted (`daemon.max_memory`, `GORTEX_MAX_MEMORY`): 64 MiB. */
export const MIN_MAX_MEMORY = 64 * 1024 * 1024;

interface DaemonSettings {
  httpAddr?: string;
  allowedRoots?: AllowedRoots;
  maxMemory?: number;
  maxMemoryKey?: 'max_memory' | 'memory_limit';
}

/** Reads `daemon.http_addr`, `daemon.allowed_roots` and `daemon.max_memory` (and warns about the other `daemon` keys). */
function daemonSettings(y: YamlFile, warnings: string[], env: NodeJS.ProcessEnv): DaemonSettings {
  const daemon = y.data.daemon;
  if (daemon === undefined || daemon === null) return {};
  if (typeof daemon !== 'object' || Array.isArray(daemon)) throw new ConfigError(`${where(y, ['daemon'])}: daemon must be a mapping, like "daemon:\n  http_addr: 127.0.0.1:7411"`);
  const d = daemon as Record<string, unknown>;
  warnKeys(y, d, DAEMON_KEYS, ['daemon'], warnings);
  const out: DaemonSettings = {};
  if (d.allowed_roots !== undefined && d.allowed_roots !== null) out.allowedRoots = allowedRoots(y, d.allowed_roots, warnings, env);
  // `memory_limit` is the older spelling of the same setting: accepted, but a value it cannot
  // read is only warned about (gortex ignored the key before, so it must not stop every open now).
  const given = (key: string): boolean => d[key] !== undefined && d[key] !== null;
  if (given('max_memory') && given('memory_limit')) warnings.push(`${where(y, ['daemon', 'memory_limit'])}: daemon.memory_limit is ignored: daemon.max_memory is set`);
  const ceilingKey = given('max_memory') ? 'max_memory' : given('memory_limit') ? 'memory_limit' : undefined;
  if (ceilingKey !== undefined) {
    const raw = d[ceilingKey];
    const bytes = typeof raw === 'number' ? (Number.isInteger(raw) && raw > 0 ? raw : undefined) : typeof raw === 'string' ? parseByteSize(raw) : undefined;
    const problem =
      bytes === undefined
        ? `must be a memory size like 2G, 1536M or a byte count, got ${JSON.stringify(raw)}`
        : bytes < MIN_MAX_MEMORY
          ? `must be at least 64M (a daemon needs that much before it tracks anything), got ${JSON.stringify(raw)}`
          : undefined;
    const at = `${where(y, ['daemon', ceilingKey])}: daemon.${ceilingKey} ${problem}`;
    if (problem === undefined) {
      out.maxMemory = bytes;
      out.maxMemoryKey = ceilingKey;
    } else if (ceilingKey === 'memory_limit') warnings.push(`${at} (ignored)`);
    else throw new ConfigError(at);
  }
  if (d.http_addr === undefined || d.http_addr === null) return out;
  if (typeof d.http_addr !== 'string' || !/^\S*:\d+$/.test(d.http_addr.trim())) {
    throw new ConfigError(`${where(y, ['daemon', 'http_addr'])}: daemon.http_addr must be host:port, like 127.0.0.1:7411, got ${JSON.stringify(d.http_addr)}`);
  }
  out.httpAddr = d.http_addr.trim();
  return out;
}

/**
 * Checks `daemon.allowed_roots`: a non-empty list of absolute directories (`~/` for the home
 * folder). One that does not exist is warned about: nothing under it can be tracked.
 */
function allowedRoots(y: YamlFile, value: unknown, warnings: string[], env: NodeJS.ProcessEnv): AllowedRoots {
  const at = where(y, ['daemon', 'allowed_roots']);
  const example = 'like [~/src, /work/repos]';
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new ConfigError(`${at}: daemon.allowed_roots must be a non-empty list of directories the daemon may track repositories in, ${example} (remove the key to allow any)`);
  }
  const home = env.HOME ?? os.homedir();
  const dirs = (value as string[]).map((raw) => {
    const text = raw.trim();
    const dir = text === '~' ? home : text.startsWith('~/') ? path.join(home, text.slice(2)) : text;
    if (!path.isAbsolute(dir)) throw new ConfigError(`${at}: daemon.allowed_roots entry ${JSON.stringify(raw)} is not an absolute path; write it in full or from ~/, ${example}`);
    if (!fs.existsSync(dir)) warnings.push(`${at}: daemon.allowed_roots entry ${JSON.stringify(raw)} does not exist; nothing under it can be tracked`);
    return path.resolve(dir);
  });
  return { dirs, source: at };
}

/** The `indexRepo` options the config files ask for. */
export function indexOptionsOf(config: LoadedConfig): { exclude?: string[]; respectGitignore?: boolean; maxFileSize?: number } {
  const out: { exclude?: string[]; respectGitignore?: boolean; maxFileSize?: number } = {};
  if (config.index.exclude.length > 0) out.exclude = [...config.index.exclude];
  if (config.index.respectGitignore !== undefined) out.respectGitignore = config.index.respectGitignore;
  if (config.index.maxFileSize !== undefined) out.maxFileSize = config.index.maxFileSize;
  return out;
}

/** `mcp.allow_embedded` of the global file: true, false or absent (false); anything else is an error. */
function allowEmbedded(y: YamlFile): boolean {
  const mcp = y.data.mcp;
  if (mcp === null || typeof mcp !== 'object' || Array.isArray(mcp)) return false;
  const value = (mcp as Record<string, unknown>).allow_embedded;
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new ConfigError(`${where(y, ['mcp', 'allow_embedded'])}: mcp.allow_embedded must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

/** Warns about keys, checks `mcp.tools`, and returns the spec it asks for. */
function check(y: YamlFile, known: readonly string[], warnings: string[], scope: 'repository' | 'global'): ConfigTools | undefined {
  warnKeys(y, y.data, known, [], warnings);
  const mcp = y.data.mcp;
  if (mcp === undefined || mcp === null) return undefined;
  if (typeof mcp !== 'object' || Array.isArray(mcp)) throw new ConfigError(`${where(y, ['mcp'])}: mcp must be a mapping, like "mcp:\\n  tools: core"`);
  const mcpObj = mcp as Record<string, unknown>;
  warnKeys(y, mcpObj, scope === 'repository' ? MCP_KEYS.filter((k) => k !== 'allow_embedded') : MCP_KEYS, ['mcp'], warnings);
  const tools = mcpObj.tools;
  if (tools === undefined || tools === null) return undefined;
  const source = `${where(y, ['mcp', 'tools'])} (mcp.tools)`;
  if (typeof tools === 'string') {
    if (tools.trim() === '') throw new ConfigError(`${where(y, ['mcp', 'tools'])}: mcp.tools is empty; give a preset such as core, or remove the key`);
    return { spec: tools.trim(), source };
  }
  if (typeof tools !== 'object' || Array.isArray(tools)) {
    throw new ConfigError(`${where(y, ['mcp', 'tools'])}: mcp.tools must be a preset name ("core") or a mapping with preset, mode, allow, deny`);
  }
  const t = tools as Record<string, unknown>;
  for (const key of Object.keys(t)) {
    if (!(TOOLS_KEYS as readonly string[]).includes(key)) {
      warnings.push(`${where(y, ['mcp', 'tools', key])}: unknown key "mcp.tools.${key}"; known keys here: ${TOOLS_KEYS.join(', ')} (ignored)`);
    }
  }
  if (t.preset !== undefined && (typeof t.preset !== 'string' || t.preset.trim() === '')) {
    throw new ConfigError(`${where(y, ['mcp', 'tools', 'preset'])}: mcp.tools.preset must be a preset name such as core, agent, full, readonly, edit, nav or compact`);
  }
  if (t.mode !== undefined && t.mode !== 'defer' && t.mode !== 'hide') {
    throw new ConfigError(`${where(y, ['mcp', 'tools', 'mode'])}: mcp.tools.mode must be defer or hide, got ${JSON.stringify(t.mode)}`);
  }
  const allow = t.allow === undefined ? [] : stringList(y, t.allow, ['mcp', 'tools', 'allow']);
  const deny = t.deny === undefined ? [] : stringList(y, t.deny, ['mcp', 'tools', 'deny']);
  const preset = typeof t.preset === 'string' ? t.preset.trim() : 'core';
  const spec = [preset, ...allow.map((n) => `+${n}`), ...deny.map((n) => `-${n}`)].join(',') + (t.mode ? `:${t.mode}` : '');
  return { spec, source };
}
