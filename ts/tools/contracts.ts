/**
 * `contracts`: the service contracts between the repositories of the workspace. Each repository's
 * sites come from the engine (`analyze kind=contract_sites`: providers and consumers of HTTP, gRPC,
 * GraphQL, topics, WebSocket events, environment variables, and OpenAPI operations, each with a
 * canonical key); here they are matched across repositories:
 *
 * - HTTP by method and path template — exactly, then with a provider's parameter segment matching
 *   any consumer segment, then with the consumer's extra leading segments (a gateway's `/api`
 *   prefix) — a provider of `ANY` serving every method; OpenAPI operations mark a route
 *   documented, or stand alone as declared but not served.
 * - gRPC by service (the `.proto` declares the methods and their message types; `Register…Server`
 *   / `add_…Servicer_to_server` serve it; `New…Client` / `…Stub` call it).
 * - GraphQL by root field, topics by name, WebSocket events by name, environment variables by name.
 *
 * `action: "list"` answers the contracts in the web UI's shape; `action: "check"` the issues:
 * consumers nothing serves (breaking for calls, a warning for events and variables), calls with a
 * method the path is not served for, providers nothing consumes, documented operations no route
 * serves, routes a repository's OpenAPI document leaves out, and request/response types that
 * disagree where both sides state them.
 */
import { z } from 'zod';
import { defineTool, ToolInputError, type ToolDef } from './registry';
import type { ToolContext } from '../workspace/context';

/** The families. */
export const CONTRACT_TYPES = ['http', 'grpc', 'graphql', 'topic', 'ws', 'env', 'openapi'] as const;
type ContractType = (typeof CONTRACT_TYPES)[number];

/** One site as the engine answers it. */
interface Site {
  kind: ContractType;
  role: 'provider' | 'consumer';
  key: string;
  name: string;
  source: string;
  path: string;
  line: number;
  symbol?: { id: string; name: string; is_test?: boolean };
  method?: string;
  route?: string;
  path_params?: string[];
  request_type?: string;
  response_type?: string;
  request_stream?: boolean;
  response_stream?: boolean;
  broker?: string;
  package?: string;
  test?: boolean;
}

/** A site with its repository. */
type RepoSite = Site & { repo: string };

/** One contract side as the web UI reads it. */
interface Location {
  role: 'provider' | 'consumer';
  repo_prefix: string;
  /** The symbol around the site, else the file's id. */
  symbol_id: string;
  file_path: string;
  line: number;
  meta: Record<string, unknown>;
}

/** One contract. */
export interface Contract {
  id: string;
  name: string;
  kind: string;
  type: ContractType;
  scope: 'own' | 'external';
  producer: string;
  consumers: string[];
  version: string;
  breaking: boolean;
  callers: number;
  last: string;
  status: 'matched' | 'orphan_provider' | 'orphan_consumer' | 'declared_only';
  /** How the consumers were matched to the provider: exact key, a parameter segment, or a prefix. */
  match?: 'exact' | 'pattern' | 'prefix';
  documented?: boolean;
  locations: Location[];
  schema?: Record<string, unknown>;
  methods?: { name: string; request_type?: string; response_type?: string; request_stream?: boolean; response_stream?: boolean }[];
}

/** One problem `check` reports. */
export interface ContractIssue {
  contract_id: string;
  kind: string;
  severity: 'breaking' | 'warning' | 'info';
  provider?: string;
  consumer?: string;
  details: string;
  provider_type?: string;
  consumer_type?: string;
}

const KIND_LABEL: Record<ContractType, string> = { http: 'REST', openapi: 'REST', grpc: 'RPC', graphql: 'GRAPHQL', topic: 'EVENT', ws: 'EVENT', env: 'ENV' };

/** Where a site is, as `repo:path:line`. */
function where(s: RepoSite): string {
  return `${s.repo}:${s.path}:${s.line}`;
}

function locationOf(s: RepoSite): Location {
  const meta: Record<string, unknown> = { source: s.source };
  for (const k of ['method', 'route', 'request_type', 'response_type', 'request_stream', 'response_stream', 'path_params', 'broker', 'package'] as const) {
    const v = s[k];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) meta[k] = v;
  }
  return { role: s.role, repo_prefix: s.repo, symbol_id: s.symbol?.id ?? `${s.repo}/${s.path}`, file_path: s.path, line: s.line, meta };
}

/** `http::GET::/a/{}` → `{ method, segments }`. */
function httpParts(key: string): { method: string; path: string; segments: string[] } {
  const [, method = '', path = '/'] = key.split('::');
  return { method, path, segments: path.split('/').filter(Boolean) };
}

/**
 * How well a provider path serves a consumer path: 0 exact, 1 through parameter segments, 2 with
 * the consumer's extra leading segments; undefined when it does not.
 */
function pathMatch(provider: string[], consumer: string[]): 0 | 1 | 2 | undefined {
  if (consumer.length < provider.length) return undefined;
  const offset = consumer.length - provider.length;
  // A prefix on the caller's side is a gateway's only when the provider's own path names something:
  // `/` or `/{}` would otherwise serve every call.
  if (offset > 0 && !provider.some((p) => p !== '{}')) return undefined;
  let pattern = false;
  for (let i = 0; i < provider.length; i++) {
    const p = provider[i]!;
    const c = consumer[offset + i]!;
    if (p === c) continue;
    if (p === '{}') {
      pattern = true;
      continue;
    }
    return undefined;
  }
  return offset > 0 ? 2 : pattern ? 1 : 0;
}

const MATCH_NAMES = ['exact', 'pattern', 'prefix'] as const;

/** The contracts of `sites` (every repository's) and the issues they have. */
export function matchContracts(sites: readonly RepoSite[]): { contracts: Contract[]; issues: ContractIssue[] } {
  const contracts = new Map<string, Contract>();
  const issues: ContractIssue[] = [];
  const contract = (id: string, type: ContractType, name: string): Contract => {
    let c = contracts.get(id);
    if (!c) {
      c = { id, name, kind: KIND_LABEL[type], type, scope: 'own', producer: '', consumers: [], version: '', breaking: false, callers: 0, last: '', status: 'matched', locations: [] };
      contracts.set(id, c);
    }
    return c;
  };
  const addProvider = (c: Contract, s: RepoSite) => {
    c.locations.push(locationOf(s));
    if (!c.producer) c.producer = s.symbol?.id ?? `${s.repo}/${s.path}`;
  };
  const addConsumer = (c: Contract, s: RepoSite) => {
    c.locations.push(locationOf(s));
    c.callers++;
    const who = s.symbol?.id ?? `${s.repo}/${s.path}`;
    if (!c.consumers.includes(who)) c.consumers.push(who);
  };

  // HTTP: code providers, OpenAPI declarations, consumers.
  const httpProviders = sites.filter((s) => s.kind === 'http' && s.role === 'provider');
  const declared = sites.filter((s) => s.kind === 'openapi');
  for (const p of httpProviders) addProvider(contract(p.key, 'http', p.name), p);
  for (const d of declared) {
    const { method, segments } = httpParts(d.key);
    const serving = httpProviders.filter((p) => {
      const pp = httpParts(p.key);
      return (pp.method === method || pp.method === 'ANY') && pathMatch(pp.segments, segments) !== undefined && pp.segments.length === segments.length;
    });
    if (serving.length > 0) {
      for (const p of serving) {
        const c = contracts.get(p.key)!;
        c.documented = true;
        c.locations.push(locationOf(d));
        c.schema = { ...(d.request_type ? { request_type: d.request_type } : {}), ...(d.response_type ? { response_type: d.response_type } : {}), source: 'openapi' };
      }
    } else {
      const c = contract(d.key, 'openapi', d.name);
      c.status = 'declared_only';
      c.documented = true;
      c.locations.push(locationOf(d));
      issues.push({ contract_id: d.key, kind: 'not_implemented', severity: 'warning', provider: where(d), details: `${d.name} is documented in ${d.repo}/${d.path} but no route of the tracked repositories serves it` });
    }
  }
  // Routes of a repository whose OpenAPI document leaves them out.
  const documentedRepos = new Set(declared.map((d) => d.repo));
  for (const p of httpProviders) {
    const c = contracts.get(p.key)!;
    if (documentedRepos.has(p.repo) && !c.documented && !p.test) {
      issues.push({ contract_id: p.key, kind: 'undocumented', severity: 'info', provider: where(p), details: `${p.name} is served but ${p.repo}'s OpenAPI document does not list it` });
    }
  }
  for (const s of sites.filter((x) => x.kind === 'http' && x.role === 'consumer')) {
    const { method, segments } = httpParts(s.key);
    let best: { p: RepoSite; quality: 0 | 1 | 2 } | undefined;
    let pathOnly: RepoSite[] = [];
    for (const p of httpProviders) {
      const pp = httpParts(p.key);
      const q = pathMatch(pp.segments, segments);
      if (q === undefined) continue;
      if (pp.method !== method && pp.method !== 'ANY') {
        pathOnly.push(p);
        continue;
      }
      if (!best || q < best.quality) best = { p, quality: q };
    }
    if (best) {
      const c = contracts.get(best.p.key)!;
      addConsumer(c, s);
      const q = MATCH_NAMES[best.quality];
      if (!c.match || MATCH_NAMES.indexOf(q) > MATCH_NAMES.indexOf(c.match)) c.match = q;
      const provided = best.p.response_type ?? c.schema?.response_type;
      if (s.response_type && typeof provided === 'string' && normalType(provided) !== normalType(s.response_type)) {
        issues.push({ contract_id: c.id, kind: 'type_mismatch', severity: 'warning', provider: where(best.p), consumer: where(s), details: `${s.name} expects ${s.response_type}; ${best.p.name} answers ${provided}`, provider_type: provided, consumer_type: s.response_type });
      }
      continue;
    }
    const c = contract(s.key, 'http', s.name);
    c.status = 'orphan_consumer';
    addConsumer(c, s);
    if (pathOnly.length > 0) {
      pathOnly = [...new Map(pathOnly.map((p) => [httpParts(p.key).method, p])).values()];
      issues.push({
        contract_id: s.key,
        kind: 'method_mismatch',
        severity: 'breaking',
        consumer: where(s),
        provider: where(pathOnly[0]!),
        details: `${s.name} calls ${method} but the path is served only for ${pathOnly.map((p) => httpParts(p.key).method).sort().join(', ')}`,
      });
    } else {
      issues.push({ contract_id: s.key, kind: 'orphan_consumer', severity: s.test ? 'info' : 'breaking', consumer: where(s), details: `${s.name} (${s.repo}/${s.path}:${s.line}) is served by no tracked repository` });
    }
  }

  // gRPC: per service; the proto declares methods, code serves and calls.
  const grpc = sites.filter((s) => s.kind === 'grpc');
  const services = new Set(grpc.filter((s) => s.source === 'proto' && s.key.split('::').length === 2).map((s) => s.key));
  for (const s of grpc) {
    const parts = s.key.split('::');
    const serviceKey = `grpc::${parts[1]}`;
    // Code sites of services no tracked .proto declares are some other library's `…Client`.
    if (!services.has(serviceKey)) continue;
    const c = contract(serviceKey, 'grpc', parts[1]!);
    if (s.source === 'proto') {
      if (parts.length === 3) {
        c.methods ??= [];
        c.methods.push({ name: parts[2]!, ...(s.request_type ? { request_type: s.request_type } : {}), ...(s.response_type ? { response_type: s.response_type } : {}), ...(s.request_stream ? { request_stream: true } : {}), ...(s.response_stream ? { response_stream: true } : {}) });
      } else {
        c.locations.push({ ...locationOf(s), role: 'provider' });
        c.version = s.package ?? '';
      }
    } else if (s.role === 'provider') addProvider(c, s);
    else addConsumer(c, s);
  }
  for (const id of services) {
    const c = contracts.get(id)!;
    const served = c.locations.some((l) => l.role === 'provider' && l.meta.source !== 'proto');
    if (!served) {
      c.status = c.callers > 0 ? 'orphan_consumer' : 'declared_only';
      issues.push({ contract_id: id, kind: c.callers > 0 ? 'orphan_consumer' : 'not_implemented', severity: c.callers > 0 ? 'breaking' : 'info', details: `${c.name} is declared in a .proto but no tracked repository serves it${c.callers > 0 ? ` (${c.callers} client${c.callers === 1 ? '' : 's'})` : ''}` });
    }
  }

  // Key-matched families: GraphQL, topics, WebSocket events, environment variables.
  for (const type of ['graphql', 'topic', 'ws', 'env'] as const) {
    const byKey = new Map<string, RepoSite[]>();
    for (const s of sites.filter((x) => x.kind === type)) byKey.set(s.key, [...(byKey.get(s.key) ?? []), s]);
    for (const [key, group] of byKey) {
      const c = contract(key, type, group[0]!.name);
      for (const s of group) (s.role === 'provider' ? addProvider : addConsumer)(c, s);
      const providers = group.filter((s) => s.role === 'provider');
      const consumers = group.filter((s) => s.role === 'consumer');
      if (providers.length > 0 && type === 'graphql') c.schema = { ...(providers[0]!.response_type ? { response_type: providers[0]!.response_type } : {}), source: 'sdl' };
      if (providers.length === 0) {
        c.status = 'orphan_consumer';
        const first = consumers[0]!;
        const what = { graphql: 'no tracked schema defines it', topic: 'nothing in the tracked repositories publishes it', ws: 'nothing in the tracked repositories emits it', env: 'no .env file, Dockerfile or manifest of the tracked repositories defines it' }[type];
        issues.push({ contract_id: key, kind: 'orphan_consumer', severity: type === 'graphql' ? 'breaking' : 'warning', consumer: where(first), details: `${first.name} is ${type === 'env' ? 'read' : type === 'graphql' ? 'queried' : 'consumed'} (${consumers.length} site${consumers.length === 1 ? '' : 's'}) but ${what}` });
      } else if (consumers.length === 0) {
        c.status = 'orphan_provider';
        if (!providers.every((p) => p.test)) {
          issues.push({ contract_id: key, kind: 'orphan_provider', severity: 'info', provider: where(providers[0]!), details: `${providers[0]!.name} is ${type === 'env' ? 'defined' : type === 'graphql' ? 'in the schema' : 'produced'} but nothing in the tracked repositories ${type === 'env' ? 'reads' : 'consumes'} it` });
        }
      }
    }
  }

  // HTTP providers nothing calls.
  for (const p of httpProviders) {
    const c = contracts.get(p.key)!;
    if (c.callers === 0 && c.status === 'matched') {
      c.status = 'orphan_provider';
      if (!p.test) issues.push({ contract_id: p.key, kind: 'orphan_provider', severity: 'info', provider: where(p), details: `${p.name} is served but no tracked repository calls it` });
    }
  }
  for (const i of issues) if (i.severity === 'breaking') contracts.get(i.contract_id)!.breaking = true;
  const list = [...contracts.values()].sort((a, b) => a.type.localeCompare(b.type) || a.id.localeCompare(b.id));
  issues.sort((a, b) => ['breaking', 'warning', 'info'].indexOf(a.severity) - ['breaking', 'warning', 'info'].indexOf(b.severity) || a.contract_id.localeCompare(b.contract_id) || a.kind.localeCompare(b.kind));
  return { contracts: list, issues };
}

/**
 * A stated type in one spelling across languages: wrappers that do not change the payload dropped
 * (`Promise<X>`, `Mono<X>`, `ResponseEntity<X>`), collections as `X[]` (`Array<X>`, `List<X>`,
 * `list[X]`, `[X]`), namespaces dropped (`models.User` → `User`).
 */
export function normalType(t: string): string {
  let s = t.trim();
  for (let m = /^(?:Promise|Mono|Optional|ResponseEntity|Awaitable)\s*<\s*(.*)>$/.exec(s); m; m = /^(?:Promise|Mono|Optional|ResponseEntity|Awaitable)\s*<\s*(.*)>$/.exec(s)) s = m[1]!.trim();
  const collection = /^(?:Array|List|Flux|Iterable|Set|ReadonlyArray)\s*<\s*(.*)>$/.exec(s) ?? /^(?:list|List|Sequence|set|Set)\s*\[\s*(.*)\]$/.exec(s) ?? /^\[\s*(.*?)!?\s*\]!?$/.exec(s);
  if (collection) return `${normalType(collection[1]!)}[]`;
  if (s.endsWith('[]')) return `${normalType(s.slice(0, -2))}[]`;
  return s.replace(/!$/, '').replace(/^.*\./, '');
}

/** Every served repository's sites (the session's own when there is no workspace). */
async function gatherSites(ctx: ToolContext, only: readonly string[] | undefined, includeTests: boolean): Promise<{ sites: RepoSite[]; repos: string[] }> {
  const all = ctx.workspace?.repos() ?? [];
  const names = all.length > 0 ? all.map((r) => r.name) : [];
  if (only) {
    const unknown = only.filter((n) => !names.includes(n) && n !== ctx.repo);
    if (unknown.length > 0 && all.length > 0) throw new ToolInputError('not_found', `repos: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not served here; repositories: ${names.join(', ')}`);
  }
  const chosen = only ?? names;
  const sites: RepoSite[] = [];
  const repos: string[] = [];
  const contexts = chosen.length > 0 && ctx.workspace ? await Promise.all(chosen.map((n) => ctx.workspace!.contextOf(n))) : [ctx];
  for (const rctx of contexts) {
    const answer = rctx.engine.query('analyze', { kind: 'contract_sites', limit: 20_000 }, { repo: rctx.repo }) as { sites: Site[] };
    const name = rctx.engine.repos().find((r) => r.root === rctx.root || r.name === rctx.repo)?.name ?? rctx.repo;
    repos.push(name);
    for (const s of answer.sites) if (includeTests || !s.test) sites.push({ ...s, repo: name });
  }
  return { sites, repos };
}

/** The contracts tool. */
export const contractTools: ToolDef[] = [
  defineTool({
    name: 'contracts',
    category: 'analysis',
    effect: 'read',
    description:
      'API contracts between the repositories of the workspace: HTTP routes and the calls made to them, gRPC services (.proto, servers, clients), GraphQL fields and operations, message topics, WebSocket events, environment variables and OpenAPI operations, matched across repositories (path templates, methods, service and topic names) with request/response types where the code states them. action list (default): the contracts; action check: consumers nothing serves, method mismatches, providers nothing consumes, documented operations nothing serves, type disagreements.',
    input: {
      action: z.enum(['list', 'check']).default('list').describe('list (default) or check'),
      types: z.array(z.enum(CONTRACT_TYPES)).max(7).optional().describe('Only these families (http, grpc, graphql, topic, ws, env, openapi)'),
      repos: z.array(z.string().min(1)).max(100).optional().describe('Only these repositories (default every one served)'),
      include_tests: z.boolean().default(false).describe('Also sites in test code'),
      status: z.enum(['matched', 'orphan_provider', 'orphan_consumer', 'declared_only']).optional().describe('list: only contracts in this state'),
      limit: z.number().int().min(1).max(5000).default(500).describe('Most contracts (list) or issues (check)'),
    },
    handler: async (ctx, args) => {
      const { sites, repos } = await gatherSites(ctx, args.repos, args.include_tests);
      const { contracts, issues } = matchContracts(sites);
      const typed = (t: ContractType) => !args.types || args.types.includes(t) || (t === 'openapi' && args.types.includes('http'));
      if (args.action === 'check') {
        const kept = issues.filter((i) => typed(contracts.find((c) => c.id === i.contract_id)?.type ?? 'http'));
        const summary = { total: kept.length, breaking: kept.filter((i) => i.severity === 'breaking').length, warning: kept.filter((i) => i.severity === 'warning').length, info: kept.filter((i) => i.severity === 'info').length };
        return { repos, issues: kept.slice(0, args.limit), summary, truncated: kept.length > args.limit, evidence: 'text' };
      }
      const kept = contracts.filter((c) => typed(c.type) && (!args.status || c.status === args.status));
      const counts: Record<string, number> = {};
      for (const c of kept) counts[c.status] = (counts[c.status] ?? 0) + 1;
      return { repos, contracts: kept.slice(0, args.limit), total: kept.length, counts, truncated: kept.length > args.limit, evidence: 'text' };
    },
  }),
] as unknown as ToolDef[];
