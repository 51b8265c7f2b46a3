/**
 * The forge client of the PR tools: GitHub REST v3 and GitLab REST v4 over Node's global `fetch`.
 * The repository comes from the `origin` remote (or the caller's `forge_repo`), the API base from
 * `GORTEX_GITHUB_API` / `GORTEX_GITLAB_API` and the token from the server's environment. Every
 * failure is a `ToolInputError('unavailable', …)` naming the endpoint, the status and what to do,
 * and the token is only ever sent to the configured API origin (a pagination link elsewhere is
 * not followed).
 */
import { git } from '../support/git';
import { ToolInputError } from './registry';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Which forge API a repository is served by. */
export type ForgeKind = 'github' | 'gitlab';

/** A repository on a forge: where its API is and how to name it there. */
export interface ForgeRepo {
  kind: ForgeKind;
  /** `owner/name` (GitLab: the full project path, groups included). */
  slug: string;
  /** The API base URL, without a trailing slash. */
  api: string;
  /** Where the repository was named: the `forge_repo` argument or the origin remote. */
  from: 'argument' | 'origin';
}

/** Default API bases (overridden by the environment so tests and self-hosted forges point elsewhere). */
const DEFAULT_API: Record<ForgeKind, string> = { github: 'https://api.github.com', gitlab: 'https://gitlab.com/api/v4' };
/** Pages followed at most per listing (100 rows each): a bounded cost per call. */
const MAX_PAGES = 10;
/** Per-request timeout unless `GORTEX_FORGE_TIMEOUT_MS` says otherwise. */
const DEFAULT_TIMEOUT_MS = 15_000;

/** The forge's display name, for messages. */
export function forgeName(kind: ForgeKind): string {
  return kind === 'github' ? 'GitHub' : 'GitLab';
}

/** The environment variables a forge's token is read from, in order. */
export function tokenVars(kind: ForgeKind): string[] {
  return kind === 'github' ? ['GH_TOKEN', 'GITHUB_TOKEN'] : ['GITLAB_TOKEN'];
}

/** The forge token from the server's environment, if any. */
export function forgeToken(kind: ForgeKind, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of tokenVars(kind)) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** Host and path (`owner/name`, `.git` dropped) of a git remote URL in https, ssh or scp form; credentials are discarded. */
export function parseRemote(url: string): { host: string; path: string } | undefined {
  const text = url.trim();
  let host: string;
  let p: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      return undefined;
    }
    host = u.hostname;
    p = decodeURIComponent(u.pathname);
  } else if (scp) {
    host = scp[1]!;
    p = scp[2]!;
  } else {
    return undefined;
  }
  p = p.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (!host || p.split('/').filter(Boolean).length < 2) return undefined;
  return { host: host.toLowerCase(), path: p };
}

/** The forge kind of a host: GitLab when the host says so (or `GORTEX_FORGE=gitlab`), otherwise GitHub. */
export function kindOfHost(host: string | undefined, env: NodeJS.ProcessEnv = process.env): ForgeKind {
  const forced = env.GORTEX_FORGE?.trim().toLowerCase();
  if (forced === 'gitlab' || forced === 'github') return forced;
  return host?.includes('gitlab') ? 'gitlab' : 'github';
}

/** The API base for a forge kind, from the environment or the public default. */
export function apiBase(kind: ForgeKind, env: NodeJS.ProcessEnv = process.env): string {
  const v = (kind === 'github' ? env.GORTEX_GITHUB_API : env.GORTEX_GITLAB_API)?.trim();
  return (v || DEFAULT_API[kind]).replace(/\/+$/, '');
}

/** The repository a PR tool talks about: `forge_repo` when given, else the `origin` remote of `root`. */
export async function resolveForgeRepo(root: string, forgeRepo: string | undefined): Promise<ForgeRepo> {
  const remote = await git(root, ['remote', 'get-url', 'origin']);
  const parsed = remote.ok ? parseRemote(remote.stdout) : undefined;
  if (forgeRepo !== undefined) {
    const slug = forgeRepo.trim().replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
    if (!/^[\w.-]+(\/[\w.-]+)+$/.test(slug)) throw new ToolInputError('invalid_argument', `forge_repo ${JSON.stringify(forgeRepo)} is not "owner/name"`);
    const kind = kindOfHost(parsed?.host);
    return { kind, slug, api: apiBase(kind), from: 'argument' };
  }
  if (!parsed) {
    const why = remote.ok ? `its URL ${JSON.stringify(redactUrl(remote.stdout.trim()))} names no owner/name` : 'this repository has no origin remote';
    throw new ToolInputError('invalid_argument', `cannot tell which forge repository to use: ${why}; pass forge_repo: "owner/name"`);
  }
  const kind = kindOfHost(parsed.host);
  return { kind, slug: parsed.path, api: apiBase(kind), from: 'origin' };
}

/** A URL with any userinfo dropped, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]+@/, '//');
}

/** One request the client made, as a tool reports it. */
export interface ForgeRequest {
  method: string;
  path: string;
}

/** A JSON client of one forge repository's API, authenticated with the server's token. */
export class ForgeClient {
  /** Requests made so far (method and path), in order. */
  readonly requests: ForgeRequest[] = [];
  private readonly timeoutMs: number;

  constructor(
    readonly repo: ForgeRepo,
    private readonly token: string,
  ) {
    const t = Number(process.env.GORTEX_FORGE_TIMEOUT_MS);
    this.timeoutMs = Number.isFinite(t) && t > 0 ? t : DEFAULT_TIMEOUT_MS;
  }

  /** The path prefix of this repository: `/repos/{owner}/{name}` or `/projects/{url-encoded path}`. */
  get base(): string {
    return this.repo.kind === 'github' ? `/repos/${this.repo.slug}` : `/projects/${encodeURIComponent(this.repo.slug)}`;
  }

  /** GET one JSON document. */
  async get(path: string): Promise<Json> {
    return (await this.send('GET', path)).body;
  }

  /** POST a JSON body and answer the JSON reply. */
  async post(path: string, body: unknown): Promise<Json> {
    return (await this.send('POST', path, body)).body;
  }

  /** GET every page of a listing (100 per page, at most ten pages); `truncated` when more were left. */
  async list(path: string): Promise<{ rows: Json[]; truncated: boolean }> {
    const rows: Json[] = [];
    const sep = path.includes('?') ? '&' : '?';
    let next: string | undefined = `${path}${sep}per_page=100`;
    for (let page = 0; next !== undefined; page++) {
      if (page === MAX_PAGES) return { rows, truncated: true };
      const reply = await this.send('GET', next);
      const body = reply.body;
      // Check runs come wrapped ({ total_count, check_runs }); everything else is a bare array.
      const items = Array.isArray(body) ? body : Array.isArray(body?.check_runs) ? body.check_runs : [];
      rows.push(...items);
      next = this.nextPage(reply.headers, next);
    }
    return { rows, truncated: false };
  }

  /** The next page's path: GitHub's `Link: <…>; rel="next"` (same origin only) or GitLab's `x-next-page`. */
  private nextPage(headers: Headers, current: string): string | undefined {
    if (this.repo.kind === 'gitlab') {
      const n = headers.get('x-next-page')?.trim();
      if (!n) return undefined;
      return /[?&]page=\d+/.test(current) ? current.replace(/([?&])page=\d+/, `$1page=${n}`) : `${current}&page=${n}`;
    }
    const link = headers.get('link');
    const m = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link) : null;
    if (!m) return undefined;
    const url = new URL(m[1]!, this.repo.api);
    const api = new URL(this.repo.api);
    // The token goes to the configured API only: a link to another origin ends the listing.
    if (url.origin !== api.origin || !url.pathname.startsWith(api.pathname.replace(/\/$/, ''))) return undefined;
    return url.pathname.slice(api.pathname.replace(/\/$/, '').length) + url.search;
  }

  /** One request: JSON in and out, a timeout, and an `unavailable` error that says what to do. */
  private async send(method: string, path: string, body?: unknown): Promise<{ body: Json; headers: Headers }> {
    this.requests.push({ method, path });
    const name = forgeName(this.repo.kind);
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'gortex' };
    if (this.repo.kind === 'github') {
      headers.Accept = 'application/vnd.github+json';
      headers['X-GitHub-Api-Version'] = '2022-11-28';
      headers.Authorization = `Bearer ${this.token}`;
    } else {
      headers['PRIVATE-TOKEN'] = this.token;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.repo.api}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      const err = e as Error;
      const why = err.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : (err.cause as Error | undefined)?.message ?? err.message;
      throw new ToolInputError(
        'unavailable',
        `${name} ${method} ${path} failed: ${why}; check the network and ${this.repo.kind === 'github' ? 'GORTEX_GITHUB_API' : 'GORTEX_GITLAB_API'} (now ${this.repo.api}), or pass the PR data as arguments to work offline`,
      );
    }
    const text = await res.text();
    let parsed: Json = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw new ToolInputError('unavailable', `${name} ${method} ${path} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${detailOf(parsed)}; ${this.advice(res)}`);
    return { body: parsed, headers: res.headers };
  }

  /** What to do about a failed status. */
  private advice(res: Response): string {
    const vars = tokenVars(this.repo.kind).join(' or ');
    switch (res.status) {
      case 401:
        return `the token was refused: set a valid ${vars} in the server's environment`;
      case 403:
        return res.headers.get('x-ratelimit-remaining') === '0'
          ? `the rate limit is spent until ${res.headers.get('x-ratelimit-reset') ?? 'its reset'}; wait, or use a token with a higher limit`
          : `the token (${vars}) lacks permission for ${this.repo.slug}: give it repository read access (and pull-request write access to post reviews)`;
      case 404:
        return `check that ${this.repo.slug} (from the ${this.repo.from === 'argument' ? 'forge_repo argument' : 'origin remote'}) and the PR number exist and that ${vars} can see them`;
      case 422:
        return 'the forge refused the request\'s content: a comment may point outside the diff, or the commit may not be the PR\'s head';
      default:
        return res.status >= 500 ? 'the forge is failing: try again later' : 'see the forge\'s message';
    }
  }
}

/** The forge's own error message, briefly. */
function detailOf(body: Json): string {
  const msg = typeof body === 'string' ? body : (body?.message ?? body?.error ?? body?.error_description);
  if (msg === undefined || msg === null) return '';
  const text = typeof msg === 'string' ? msg : JSON.stringify(msg);
  return ` (${text.slice(0, 200)})`;
}

/**
 * A client of the repository's forge, or an `unavailable` error naming the token to set and the
 * offline alternative (`offline`: the argument that supplies the data instead).
 */
export function clientFor(repo: ForgeRepo, tool: string, offline: string): ForgeClient {
  const token = forgeToken(repo.kind);
  if (!token) {
    throw new ToolInputError(
      'unavailable',
      `${tool} needs the ${forgeName(repo.kind)} API for ${repo.slug} and no token is set: set ${tokenVars(repo.kind).join(' or ')} in the server's environment, or pass ${offline} to work without the network`,
    );
  }
  return new ForgeClient(repo, token);
}
