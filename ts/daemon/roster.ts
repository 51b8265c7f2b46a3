/**
 * The multi-server roster (`<gortex home>/servers.toml`): other gortex servers — daemons on other
 * sockets (`unix:///path`) or HTTP servers (`https://host/v1`) — and the workspaces each serves. A
 * tool call is routed by workspace: the call's own `workspace` argument, else the `workspace` of the
 * session repository's `.gortex.yaml`, else the `default` server; a call that lands on no remote
 * server is answered locally. Remote calls go to `POST <url>/tools/<name>` with the server's bearer
 * token, or as a `call` control request on another daemon's socket.
 *
 * The daemon reads the roster once, at start (`readRoster`; a broken file stops the start), and
 * gives every MCP session a `route` hook (`createMcpServer`'s `route` option), which the call
 * pipeline's route stage consults before running anything locally.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, stringify } from 'smol-toml';
import { failure, type CallFormat, type CallOutcome } from '../calls/pipeline';
import { writeFileAtomic } from '../support/atomic-write';

/** One server of the roster. */
export interface RosterServer {
  slug: string;
  /** `unix:///absolute/socket` or `http(s)://host[:port]/v1`. */
  url: string;
  /** Where calls no workspace claims go. */
  default?: boolean;
  /** The token itself (prefer `auth_token_env`). */
  auth_token?: string;
  /** An environment variable holding the token, read at request time. */
  auth_token_env?: string;
  /** Workspace slugs this server serves. */
  workspaces?: string[];
}

/** A roster file that cannot be used, naming the file and the fix. */
export class RosterError extends Error {
  override name = 'RosterError';
}

/** The roster file under a gortex home. */
export function rosterFile(home: string): string {
  return path.join(home, 'servers.toml');
}

const SERVER_KEYS = ['slug', 'url', 'default', 'auth_token', 'auth_token_env', 'workspaces'];

/** Reads and checks the roster (empty when the file does not exist). */
export function readRoster(file: string): RosterServer[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new RosterError(`${file}: cannot be read (${(error as Error).message})`);
  }
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new RosterError(`${file}: not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = data.server ?? [];
  if (!Array.isArray(list)) throw new RosterError(`${file}: servers are [[server]] tables, each with slug and url`);
  const servers = list.map((entry, i) => checkServer(file, i, entry));
  const slugs = new Set<string>();
  for (const s of servers) {
    if (slugs.has(s.slug)) throw new RosterError(`${file}: the slug "${s.slug}" is used twice`);
    slugs.add(s.slug);
  }
  if (servers.filter((s) => s.default).length > 1) throw new RosterError(`${file}: at most one server may be default = true`);
  return servers;
}

function checkServer(file: string, index: number, entry: unknown): RosterServer {
  const at = `${file}: server #${index + 1}`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new RosterError(`${at} must be a table`);
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!SERVER_KEYS.includes(key)) throw new RosterError(`${at}: unknown key "${key}"; keys: ${SERVER_KEYS.join(', ')}`);
  if (typeof e.slug !== 'string' || !/^[\w.-]{1,64}$/.test(e.slug)) throw new RosterError(`${at}: slug must be a short name (letters, digits, _ . -)`);
  if (typeof e.url !== 'string') throw new RosterError(`${at} (${e.slug}): url is required`);
  checkUrl(e.url, `${at} (${e.slug})`);
  if (e.default !== undefined && typeof e.default !== 'boolean') throw new RosterError(`${at} (${e.slug}): default must be true or false`);
  for (const key of ['auth_token', 'auth_token_env'] as const) {
    if (e[key] !== undefined && (typeof e[key] !== 'string' || e[key] === '')) throw new RosterError(`${at} (${e.slug}): ${key} must be a non-empty string`);
  }
  if (e.workspaces !== undefined && (!Array.isArray(e.workspaces) || !e.workspaces.every((w) => typeof w === 'string'))) {
    throw new RosterError(`${at} (${e.slug}): workspaces must be a list of workspace slugs`);
  }
  const out: RosterServer = { slug: e.slug, url: e.url };
  if (e.default === true) out.default = true;
  if (typeof e.auth_token === 'string') out.auth_token = e.auth_token;
  if (typeof e.auth_token_env === 'string') out.auth_token_env = e.auth_token_env;
  if (Array.isArray(e.workspaces)) out.workspaces = e.workspaces as string[];
  return out;
}

/** Throws unless `url` is `unix:///absolute/path` or an http(s) URL. */
export function checkUrl(url: string, what: string): void {
  if (url.startsWith('unix://')) {
    if (!path.isAbsolute(url.slice('unix://'.length))) throw new RosterError(`${what}: a unix URL needs an absolute socket path, like unix:///run/user/1000/gortex.sock`);
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RosterError(`${what}: url must be unix:///path/to/socket or https://host/v1, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new RosterError(`${what}: url must be unix://, https:// or http://, got ${parsed.protocol}`);
}

/** Writes the roster. */
export function writeRoster(file: string, servers: RosterServer[]): void {
  // Tokens may be inline: the roster stays the user's alone.
  writeFileAtomic(file, `# gortex server roster: tool calls are routed by workspace (gortex daemon server add/remove)\n${stringify({ server: servers })}\n`, { mode: 0o600 });
}

/** Routes tool calls across the roster; `undefined` from `route` means "answer locally". */
export class Router {
  constructor(
    private readonly servers: RosterServer[],
    /** This daemon's own socket: a roster entry pointing at it is local. */
    private readonly ownSocket: string,
  ) {}

  /** Whether any remote server is configured (no roster: every call is local). */
  get active(): boolean {
    return this.servers.some((s) => !this.isSelf(s));
  }

  private isSelf(server: RosterServer): boolean {
    return server.url.startsWith('unix://') && path.resolve(server.url.slice('unix://'.length)) === path.resolve(this.ownSocket);
  }

  /** The servers for status (tokens never shown). */
  summary(): { slug: string; url: string; default: boolean; workspaces: string[]; self: boolean }[] {
    return this.servers.map((s) => ({ slug: s.slug, url: s.url, default: s.default === true, workspaces: s.workspaces ?? [], self: this.isSelf(s) }));
  }

  /** The remote server for a workspace (the call's, else the session's), or undefined for local. */
  route(workspace: string | undefined): RosterServer | undefined {
    const match = workspace === undefined ? undefined : this.servers.find((s) => s.workspaces?.includes(workspace));
    const chosen = match ?? this.servers.find((s) => s.default);
    return chosen === undefined || this.isSelf(chosen) ? undefined : chosen;
  }

  /** Answers a tool call on a remote server (`meta.gortex_routed_to` says where). */
  async forward(server: RosterServer, tool: string, args: Record<string, unknown>, format: CallFormat): Promise<CallOutcome> {
    const routed = { gortex_routed_to: server.slug };
    const failed = (code: string, message: string): CallOutcome => failure(tool, code, message, routed);
    if (server.url.startsWith('unix://')) {
      const { controlRequest, DaemonUnavailableError } = await import('./client');
      const { daemonPaths } = await import('./paths');
      const paths = { ...daemonPaths(), socket: server.url.slice('unix://'.length) };
      try {
        // No working directory: the other daemon answers from its own default repository.
        const answer = await controlRequest(paths, { kind: 'call', params: { tool, args, format } });
        if (!answer.ok) return failed(answer.error_code ?? 'internal', answer.error_msg ?? 'no reason given');
        const outcome = answer.result as CallOutcome;
        return { ...outcome, meta: { ...outcome.meta, ...routed } };
      } catch (error) {
        if (error instanceof DaemonUnavailableError) return failed('unavailable', `server "${server.slug}" (${server.url}) does not answer: ${error.message}`);
        throw error;
      }
    }
    const token = server.auth_token_env !== undefined ? process.env[server.auth_token_env] : server.auth_token;
    if (server.auth_token_env !== undefined && !token) return failed('unavailable', `server "${server.slug}" needs the token in $${server.auth_token_env}, which is not set in the daemon's environment`);
    const base = server.url.replace(/\/+$/, '');
    let response: Response;
    try {
      response = await fetch(`${base}/tools/${encodeURIComponent(tool)}?format=${format}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ arguments: args }),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      return failed('unavailable', `server "${server.slug}" (${base}) does not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    let body: { isError?: boolean; content?: { text?: string }[]; _meta?: Record<string, unknown>; error?: unknown; message?: string };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return failed('unavailable', `server "${server.slug}" answered ${response.status} with a body that is not JSON`);
    }
    // A tool's outcome is an MCP `CallToolResult`: the answer (JSON or GCX1) or `code: message`.
    if (Array.isArray(body.content)) {
      const answer = body.content.map((c) => c.text ?? '').join('');
      if (response.ok && body.isError !== true) return { ok: true, tool, format, text: answer, meta: { ...(body._meta ?? {}), ...routed } };
      const m = /^([a-z_]+): ([\s\S]*)$/.exec(answer);
      return m ? failed(m[1]!, m[2]!) : failed(`http_${response.status}`, answer || `HTTP ${response.status} from ${base}`);
    }
    // Refused before any tool ran (auth, scope, body): `{error, message}`.
    const error = body.error;
    return failed(typeof error === 'string' ? error : `http_${response.status}`, body.message ?? `HTTP ${response.status} from ${base}`);
  }
}
