/**
 * Who may talk to the HTTP surface: the bind rule (only loopback may run without a token), bearer
 * auth on `/mcp` and `/v1/*`, the browser Origin guard and the CORS response headers. The checks
 * are pure functions so they can be tested alone; the middleware wires them into express.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CallerTrust } from '../workspace/context';

/** The environment variable holding the HTTP bearer token (re-read per request, so it can rotate). */
export const TOKEN_ENV = 'GORTEX_DAEMON_HTTP_TOKEN';

/** CORS: the methods a permitted browser page may use. */
export const CORS_ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
/** CORS: the request headers it may send. */
export const CORS_ALLOW_HEADERS = 'Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, X-Gortex-Overlay-Session';
/** CORS: the response headers its scripts may read. */
export const CORS_EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Session-Idle-Ttl, Mcp-Protocol-Version';
/** CORS: how long a browser may cache a preflight answer. */
export const CORS_MAX_AGE_S = 86400;

/** Whether `host` (a name or an address, brackets allowed) only reaches this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (isIPv6(h)) {
    if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
    // An IPv4-mapped loopback (`::ffff:127.0.0.1`) is loopback too.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return mapped !== null && mapped[1]!.startsWith('127.');
  }
  return false;
}

/** The token env var of the embedded `gortex mcp --server` listener. */
export const SERVER_TOKEN_ENV = 'GORTEX_SERVER_TOKEN';

/** Where a server's token comes from, for messages and the per-request env read. */
export interface TokenSource {
  /** The flag that sets it (`--http-auth-token`, `--auth-token`). */
  flag: string;
  /** The env var read per request when the flag is absent. */
  env: string;
}

/** The daemon's token source. */
export const DAEMON_TOKEN: TokenSource = { flag: '--http-auth-token', env: TOKEN_ENV };

/** Refuses a non-loopback bind without a token: anything else could reach the tools unauthenticated. */
export function checkBind(host: string, token: string | undefined, source: TokenSource = DAEMON_TOKEN): void {
  if (isLoopbackHost(host) || (token !== undefined && token !== '')) return;
  throw new Error(
    `refusing to serve HTTP on ${host || 'all interfaces'} without an auth token: only loopback addresses may run unauthenticated; ` +
      `pass ${source.flag} <token> or set ${source.env}`,
  );
}

/** The token in force: the configured one, else the source's env var (`GORTEX_DAEMON_HTTP_TOKEN`) as it is right now. */
export function currentToken(configured: string | undefined, env: NodeJS.ProcessEnv = process.env, source: TokenSource = DAEMON_TOKEN): string | undefined {
  if (configured !== undefined && configured !== '') return configured;
  const fromEnv = env[source.env]?.trim();
  return fromEnv ? fromEnv : undefined;
}

/**
 * The trust of a request the guard let through while `configured` / the environment say what
 * they say now: with a token in force it presented that token (`trusted`); without one it is
 * `anonymous`, refused the admin tools however close it is — any local process can reach a
 * loopback port.
 */
export function trustNow(configured: string | undefined, env: NodeJS.ProcessEnv = process.env, source: TokenSource = DAEMON_TOKEN): CallerTrust {
  return currentToken(configured, env, source) === undefined ? 'anonymous' : 'trusted';
}

/** The trust the guard gave this request (`anonymous` when the guard did not run). */
export function requestTrust(res: Response): CallerTrust {
  return res.locals.gortexTrust === 'trusted' ? 'trusted' : 'anonymous';
}

/** Constant-time token comparison; hashing first makes both sides 32 bytes, so length never leaks. */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : undefined;
}

/** An origin in the form it is compared in (case-insensitive scheme and host, no trailing slash). */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

/** Whether a browser page at `origin` may call the API (`--http-allowed-origin`); `*` never matches. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const o = normalizeOrigin(origin);
  return allowed.some((a) => a !== '*' && normalizeOrigin(a) === o);
}

/**
 * The CORS headers for a request from `origin`, or none. Headers are sent only to an origin that
 * is on the allow-list AND is the `--cors-origin` (or any allowed origin when that is `*`): CORS
 * only lets a browser read what the Origin guard already admitted, it never admits anything.
 */
export function corsHeaders(origin: string | undefined, corsOrigin: string | undefined, allowed: readonly string[]): Record<string, string> | undefined {
  if (origin === undefined || corsOrigin === undefined || corsOrigin === '') return undefined;
  if (!originAllowed(origin, allowed)) return undefined;
  if (corsOrigin !== '*' && normalizeOrigin(corsOrigin) !== normalizeOrigin(origin)) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
    'Access-Control-Max-Age': String(CORS_MAX_AGE_S),
    Vary: 'Origin',
  };
}

/** What the guard middleware needs. */
export interface GuardOptions {
  /** `--http-auth-token`; `GORTEX_DAEMON_HTTP_TOKEN` (the source's env var) is read per request when absent. */
  authToken?: string;
  /** Which flag and env var name the token (default: the daemon's). */
  tokenSource?: TokenSource;
  /** `--http-allowed-origin` values. */
  allowedOrigins: readonly string[];
  /** `--cors-origin`. */
  corsOrigin?: string;
}

/** Whether the request may use `?token=` (EventSource cannot set headers; elsewhere URLs leak into logs). */
function queryTokenRoute(req: Request): boolean {
  return req.method === 'GET' && req.baseUrl + req.path === '/v1/events';
}

/** The host name of a Host header (`name:port`, `[v6]:port`), or undefined when absent. */
export function hostOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed) return bracketed[1]!;
  const at = header.lastIndexOf(':');
  return at >= 0 && header.indexOf(':') === at ? header.slice(0, at) : header;
}

/** Loopback literals a Host header may name for `sameLoopbackOrigin`. */
const LOOPBACK_LITERALS = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Whether `origin` is this server's own page (`/ui`) reached over loopback: the Host header is a
 * loopback literal (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`) and the Origin is
 * `http://` that same host:port. The built-in page POSTs to `/v1` from its own origin, which no
 * `--http-allowed-origin` lists. Any other Host is refused as before: a rebinding page on
 * `evil.example` that resolves to 127.0.0.1 sends `Host: evil.example:PORT` and its own Origin.
 */
export function sameLoopbackOrigin(origin: string, hostHeader: string | undefined): boolean {
  if (hostHeader === undefined || hostHeader === '') return false;
  const host = hostHeader.trim().toLowerCase();
  const name = hostOf(host);
  if (name === undefined || !LOOPBACK_LITERALS.has(name)) return false;
  let url: URL;
  try {
    url = new URL(origin.trim());
  } catch {
    return false;
  }
  return url.protocol === 'http:' && url.origin === normalizeOrigin(origin) && url.host === host;
}

/**
 * Guards `/mcp` and `/v1/*`: CORS headers for an admitted browser origin, the Origin guard (403,
 * preflights included, valid token or not), preflight answers (204, no auth), then bearer auth (401),
 * or without a token the loopback Host rule (403: DNS rebinding). A request let through carries its
 * trust (`requestTrust`): `trusted` with the token, `anonymous` without one.
 */
export function guard(options: GuardOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    const cors = corsHeaders(origin, options.corsOrigin, options.allowedOrigins);
    if (cors) res.set(cors);
    if (origin !== undefined && !originAllowed(origin, options.allowedOrigins) && !sameLoopbackOrigin(origin, req.headers.host)) {
      res.status(403).json({
        error: 'origin_not_allowed',
        message: `browser origin ${JSON.stringify(origin)} is not allowed; start the server with --http-allowed-origin ${origin} (and --cors-origin ${origin}) to let that page call the API`,
      });
      return;
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    const expected = currentToken(options.authToken, process.env, options.tokenSource);
    if (expected === undefined) {
      // Without a token the bind is loopback; a page on another name that rebinds its DNS to
      // 127.0.0.1 sends no Origin on simple GETs but still names itself in Host: refuse it.
      const hostName = hostOf(req.headers.host);
      if (hostName !== undefined && !isLoopbackHost(hostName)) {
        res.status(403).json({
          error: 'host_not_allowed',
          message: `Host ${JSON.stringify(req.headers.host)} is not a loopback name; an unauthenticated server answers only localhost, 127.0.0.1 or [::1] (set ${(options.tokenSource ?? DAEMON_TOKEN).flag} to serve other names)`,
        });
        return;
      }
      res.locals.gortexTrust = 'anonymous' satisfies CallerTrust;
      next();
      return;
    }
    const fromHeader = bearerToken(req.headers.authorization);
    const fromQuery = queryTokenRoute(req) && typeof req.query.token === 'string' ? req.query.token : undefined;
    const presented = fromHeader ?? fromQuery;
    if (presented !== undefined && tokensEqual(presented, expected)) {
      res.locals.gortexTrust = 'trusted' satisfies CallerTrust;
      next();
      return;
    }
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer realm="gortex"')
      .json({
        error: 'unauthorized',
        message: presented === undefined ? 'missing bearer token: send Authorization: Bearer <token>' : 'invalid bearer token',
      });
  };
}
