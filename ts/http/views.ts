/**
 * The `/v1` analysis views the web UI reads (`/v1/dashboard`, `/v1/repos`, `/v1/graph`,
 * `/v1/processes`, `/v1/communities`, `/v1/caveats`, `/v1/guards`, `/v1/contracts`,
 * `/v1/contracts/validate`, `/v1/activity`): each is made from the graph of every served
 * repository (narrowed by `?repo=` / `?project=`), through the same call pipeline as
 * `/v1/tools` where a tool answers it. A list the graph cannot fill yet is empty and says why in
 * `unavailable`; nothing is invented.
 */
import { loadConfig, type GuardRule } from '../config/config';
import type { CallOutcome } from '../calls/pipeline';
import { git } from '../support/git';
import { packageVersion } from '../support/package-root';
import type { CallerTrust } from '../workspace/context';
import type { GraphChangeEvent, GraphOptions, HttpHost, Scope, ServedRepo } from './host';

type Json = Record<string, unknown>;

/** A tool answer for the views: the parsed JSON, or an Error naming the tool and the failure. */
async function ask(host: HttpHost, repo: string, trust: CallerTrust, tool: string, args: Json): Promise<Json> {
  const outcome: CallOutcome = await host.callTool(tool, args, { repo, format: 'json', trust });
  if (!outcome.ok) throw new Error(`${tool} on ${repo}: ${outcome.code}: ${outcome.message}`);
  return JSON.parse(outcome.text) as Json;
}

/** Colours of repository cards, by the repository's place in name order. */
const PALETTE = ['#4f8cff', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#14b8a6', '#ec4899', '#84cc16', '#f97316', '#06b6d4'];

/** `owner` of a remote URL (`git@host:owner/name.git`, `https://host/owner/name`), or ''. */
export function remoteOwner(url: string): string {
  const m = /[:/]([^/:]+)\/[^/]+?(?:\.git)?\/?$/.exec(url.trim());
  return m ? m[1]! : '';
}

/** Each root's remote owner, read once per process (a remote rarely moves). */
const owners = new Map<string, Promise<string>>();
function ownerOf(root: string): Promise<string> {
  let found = owners.get(root);
  if (!found) {
    found = git(root, ['config', '--get', 'remote.origin.url']).then((r) => (r.ok ? remoteOwner(r.stdout) : ''));
    owners.set(root, found);
  }
  return found;
}

/** The language with the most files (ties by name), or ''. */
function mainLanguage(languages: Record<string, { files: number }>): string {
  let best = '';
  let most = 0;
  for (const [name, count] of Object.entries(languages).sort(([a], [b]) => a.localeCompare(b))) {
    if (count.files > most) [best, most] = [name, count.files];
  }
  return best;
}

/** Files per language of a repository: its last index pass, else its file nodes. */
function languagesOf(repo: ServedRepo): Record<string, { files: number }> {
  const fromIndex = repo.ctx.lastIndex?.languages;
  if (fromIndex && Object.keys(fromIndex).length > 0) return fromIndex;
  const out: Record<string, { files: number }> = {};
  for (const file of repo.ctx.engine.fileNodes(repo.ctx.repo, [])) {
    if (!file.language) continue;
    (out[file.language] ??= { files: 0 }).files++;
  }
  return out;
}

/** `GET /v1/repos` rows. */
export async function repoRows(repos: ServedRepo[]): Promise<Json[]> {
  const ordered = [...repos].sort((a, b) => a.name.localeCompare(b.name));
  return Promise.all(
    ordered.map(async (repo, i) => {
      const stats = repo.ctx.engine.stats(repo.ctx.repo);
      const kinds = stats.nodes_by_kind;
      const n = (kind: string): number => kinds[kind] ?? 0;
      return {
        id: repo.name,
        owner: await ownerOf(repo.root),
        project: repo.project,
        root: repo.root,
        lang: mainLanguage(languagesOf(repo)),
        nodes: stats.nodes,
        edges: stats.edges,
        funcs: n('function'),
        methods: n('method'),
        types: n('type'),
        interfaces: n('interface'),
        vars: n('variable') + n('constant'),
        files: stats.files,
        color: PALETTE[i % PALETTE.length],
      };
    }),
  );
}

/** `GET /v1/processes` rows: every repository's execution flows, tests included (`category`). */
export async function processRows(host: HttpHost, repos: ServedRepo[], trust: CallerTrust, limit = 200): Promise<Json[]> {
  const rows: Json[] = [];
  for (const repo of repos) {
    const answer = await ask(host, repo.name, trust, 'get_processes', { limit, include_tests: true });
    for (const p of (answer.processes ?? []) as Json[]) {
      const entry = p.entry as Json;
      const cut = (p.truncated ?? []) as string[];
      rows.push({
        // The entry's node id: unique across repositories, and what get_processes' id accepts.
        id: entry.id,
        name: p.name,
        entry: entry.id,
        entry_file: entry.file_path,
        repo_prefix: repo.name,
        steps: p.steps,
        files: p.files,
        repos: 1,
        score: p.score,
        // `warn`: the trace was cut at a step or depth limit, so the flow is larger than listed.
        risk: cut.length > 0 ? 'warn' : 'ok',
        crosses: [],
        category: p.kind === 'test' ? 'tests' : 'product',
        ...(cut.length > 0 ? { truncated: cut } : {}),
      });
    }
  }
  return rows.sort((a, b) => (b.score as number) - (a.score as number));
}

/** `GET /v1/communities`: every repository's communities and the modularity (the largest repository's). */
export async function communityRows(host: HttpHost, repos: ServedRepo[], trust: CallerTrust): Promise<{ communities: Json[]; modularity: number; per_repo: Json[] }> {
  const communities: Json[] = [];
  const perRepo: Json[] = [];
  for (const repo of repos) {
    const answer = await ask(host, repo.name, trust, 'get_communities', { limit: 500 });
    perRepo.push({ repo: repo.name, modularity: answer.modularity, count: answer.count, algorithm: answer.algorithm });
    for (const c of (answer.communities ?? []) as Json[]) {
      communities.push({ id: `${repo.name}#${String(c.id)}`, name: c.label, repo: repo.name, symbols: c.size, files: c.files, cohesion: c.cohesion, hub: (c.hub as Json).id, top_files: c.top_files });
    }
  }
  // One number for the page: the modularity of the repository with the most communities.
  const main = [...perRepo].sort((a, b) => (b.count as number) - (a.count as number))[0];
  return { communities, modularity: (main?.modularity as number | undefined) ?? 0, per_repo: perRepo };
}

/** Guard rules of a repository's `.gortex.yaml` (none when it has no file or a broken one). */
function guardRules(root: string): { rules: GuardRule[]; error?: string } {
  try {
    return { rules: loadConfig(root).guards ?? [] };
  } catch (error) {
    return { rules: [], error: (error as Error).message };
  }
}

/** `GET /v1/guards` rows: each rule of each repository's `guards.rules`, checked now. */
export async function guardRows(host: HttpHost, repos: ServedRepo[], trust: CallerTrust): Promise<{ guards: Json[]; violations: Json[]; errors: Json[] }> {
  const guards: Json[] = [];
  const violations: Json[] = [];
  const errors: Json[] = [];
  for (const repo of repos) {
    const { rules, error } = guardRules(repo.root);
    if (error) errors.push({ repo: repo.name, message: error });
    if (rules.length === 0) continue;
    // Boundary rules over every declaration; co-change rules against the working tree's changes.
    const everything = await ask(host, repo.name, trust, 'check_guards', { all: true });
    let changes: Json | undefined;
    let changesError: string | undefined;
    if (rules.some((r) => r.kind === 'co-change')) {
      try {
        changes = await ask(host, repo.name, trust, 'check_guards', {});
      } catch (e) {
        changesError = (e as Error).message;
      }
    }
    for (const rule of rules) {
      const source = rule.kind === 'co-change' ? changes : everything;
      const hits = ((source?.violations ?? []) as Json[]).filter((v) => v.rule === rule.name);
      for (const v of hits) violations.push({ repo: repo.name, ...v });
      const status = hits.length === 0 ? 'ok' : rule.severity === 'error' ? 'violated' : 'warn';
      guards.push({
        id: `${repo.name}#${rule.name}`,
        name: rule.name,
        kind: rule.kind,
        status,
        hits: hits.length,
        scope: `${rule.source.join(', ')} → ${rule.target.join(', ')}`,
        repo: repo.name,
        severity: rule.severity,
        message: rule.message ?? null,
        at: rule.at,
        ...(rule.kind === 'co-change' && changesError ? { unchecked: `co-change needs a git diff: ${changesError}` } : {}),
      });
    }
  }
  return { guards, violations, errors };
}

/** Most caveats of one kind per repository. */
const CAVEATS_PER_KIND = 10;
/** Callers an untested function needs before it is listed as a risk. */
const RISK_MIN_CALLERS = 5;

/** `GET /v1/caveats`: hotspots, untested functions many callers depend on, high-severity cycles and broken guards. */
export async function caveatRows(host: HttpHost, repos: ServedRepo[], trust: CallerTrust, crossCallers: (id: string) => string[]): Promise<Json[]> {
  const out: Json[] = [];
  const nodeFields = (node: Json, repo: string): Json => {
    const callerRepos = crossCallers(node.id as string);
    return { symbol: node.id, file_path: node.file_path, repo_prefix: repo, kind: node.kind, external_callers: callerRepos.length, caller_repos: [...new Set(callerRepos)] };
  };
  // Nothing here knows a symbol's owner or age yet (git history is not mined): empty, never guessed.
  const unknown = { owner: '', age: '' };
  for (const repo of repos) {
    const hot = await ask(host, repo.name, trust, 'analyze', { kind: 'hotspots', limit: CAVEATS_PER_KIND });
    for (const h of (hot.hotspots ?? []) as Json[]) {
      const node = h.node as Json;
      out.push({
        id: `hot:${String(node.id)}`,
        severity: 'hot',
        title: `${String(node.qual_name)} is a hotspot`,
        desc: `score ${String(h.score)}: ${String(h.fan_in)} callers, ${String(h.fan_out)} callees, reached from ${String(h.crossings)} other communities`,
        ...unknown,
        ...nodeFields(node, repo.name),
        fan_in: h.fan_in,
      });
    }
    const gaps = await ask(host, repo.name, trust, 'analyze', { kind: 'coverage_gaps', limit: CAVEATS_PER_KIND });
    for (const s of (gaps.symbols ?? []) as Json[]) {
      if (((s.fan_in as number) ?? 0) < RISK_MIN_CALLERS) continue;
      out.push({
        id: `risk:${String(s.id)}`,
        severity: 'risk',
        title: `${String(s.qual_name)} has ${String(s.fan_in)} callers and no test reaches it`,
        desc: 'No test calls it within two hops and no test file depends on its file; a change here is caught by nothing.',
        ...unknown,
        ...nodeFields(s, repo.name),
        fan_in: s.fan_in,
      });
    }
    const cycles = await ask(host, repo.name, trust, 'analyze', { kind: 'cycles', limit: 100 });
    let listed = 0;
    for (const c of (cycles.cycles ?? []) as Json[]) {
      if (c.severity !== 'high' || listed >= CAVEATS_PER_KIND) continue;
      listed++;
      const members = (c.members ?? []) as Json[];
      const first = members[0] ?? {};
      out.push({
        id: `cycle:${repo.name}:${members.map((m) => String(m.id)).join('|')}`,
        severity: 'cycle',
        title: `${String(c.kind) === 'imports' ? 'Import' : 'Call'} cycle of ${members.length}`,
        desc: members.map((m) => String(m.qual_name)).join(' → '),
        ...unknown,
        ...nodeFields(first, repo.name),
      });
    }
  }
  const broken = await guardRows(host, repos, trust);
  for (const v of broken.violations) {
    const at = v.at as Json | undefined;
    const symbol = (at?.id as string | undefined) ?? ((v.files as string[] | undefined)?.[0] ?? '');
    out.push({
      id: `boundary:${String(v.repo)}:${String(v.rule)}:${symbol}:${String(v.to ?? '')}`,
      severity: 'boundary',
      title: `guard ${String(v.rule)} broken`,
      desc: String(v.message),
      ...unknown,
      symbol,
      file_path: (at?.path as string | undefined) ?? symbol,
      repo_prefix: v.repo,
    });
  }
  return out;
}

/** `GET /v1/graph`: the served graphs in brief — the best-connected nodes up to `maxNodes` per repository. */
export async function graphView(host: HttpHost, scope: Scope, options: GraphOptions, crossEdges: { from: string; to: string; kind: string }[]): Promise<Json> {
  const dumps = (await host.graph(scope, options)).repos;
  const nodes: Json[] = [];
  const edges: Json[] = [];
  const byKind: Record<string, number> = {};
  const byLanguage: Record<string, number> = {};
  const perRepo: Json[] = [];
  const kept = new Set<string>();
  for (const dump of dumps) {
    // `external::` stubs are per repository but share ids: one node each.
    for (const n of dump.nodes) {
      if (kept.has(n.id)) continue;
      nodes.push(n);
      kept.add(n.id);
    }
    for (const e of dump.edges) edges.push({ ...e, cross_repo: false });
    for (const n of dump.nodes) {
      byKind[n.kind] = (byKind[n.kind] ?? 0) + 1;
      if (n.language) byLanguage[n.language] = (byLanguage[n.language] ?? 0) + 1;
    }
    perRepo.push({ repo: dump.repo, total_nodes: dump.total_nodes, total_edges: dump.total_edges, matched: dump.matched, nodes: dump.nodes.length, edges: dump.edges.length, truncated: dump.truncated, ...(dump.community_labels ? { community_labels: dump.community_labels } : {}) });
  }
  // Cross-repository references, one edge per (from, to, kind) as within a repository.
  const cross = new Map<string, Json>();
  for (const e of crossEdges) {
    if (!kept.has(e.from) || !kept.has(e.to)) continue;
    const key = `${e.from}\0${e.to}\0${e.kind}`;
    const seen = cross.get(key);
    if (seen) seen.count = (seen.count as number) + 1;
    else cross.set(key, { from: e.from, to: e.to, kind: e.kind, origin: 'cross_repo', count: 1, cross_repo: true });
  }
  edges.push(...cross.values());
  const totalNodes = dumps.reduce((n, d) => n + d.total_nodes, 0);
  const totalEdges = dumps.reduce((n, d) => n + d.total_edges, 0);
  return {
    nodes,
    edges,
    truncated: dumps.some((d) => d.truncated),
    stats: { total_nodes: totalNodes, total_edges: totalEdges, by_kind: byKind, by_language: byLanguage, per_repo: perRepo },
  };
}

/** Most activity rows kept. */
const ACTIVITY_ROWS = 500;

/** The graph changes a server has seen, newest first, as the web UI's activity rows. */
export class ActivityLog {
  private readonly rows: Json[] = [];
  private readonly filesTotal = new Map<string, number>();

  /** Records one re-index. */
  add(event: GraphChangeEvent): void {
    const before = this.filesTotal.get(event.repo);
    this.filesTotal.set(event.repo, event.files_total);
    const one = event.files.length === 1 && !event.files_truncated;
    // One file: created or deleted when the repository's file count moved by one; else modified.
    let kind = 'modified';
    if (event.kind === 'reindexed') kind = 'reindexed';
    else if (one && before !== undefined && event.files_total === before + 1) kind = 'created';
    else if (one && (event.files_deleted === 1 || (before !== undefined && event.files_total === before - 1))) kind = 'deleted';
    this.rows.unshift({
      file_path: event.files[0] ?? '',
      files: event.files,
      files_truncated: event.files_truncated,
      repo_prefix: event.repo,
      kind,
      nodes_added: event.nodes_added,
      nodes_removed: event.nodes_removed,
      edges_added: event.edges_added,
      edges_removed: event.edges_removed,
      timestamp: new Date(event.timestamp).toISOString(),
      duration_ms: event.duration_ms,
    });
    if (this.rows.length > ACTIVITY_ROWS) this.rows.length = ACTIVITY_ROWS;
  }

  /** The newest `limit` rows, of the scoped repositories. */
  list(limit: number, repos?: ReadonlySet<string>): Json[] {
    return this.rows.filter((r) => !repos || repos.has(r.repo_prefix as string)).slice(0, limit);
  }
}

/**
 * `GET /v1/contracts` (`action: "list"`) and `/v1/contracts/validate` (`"check"`): the `contracts`
 * tool over the served repositories, matched across all of them in one call.
 */
export async function contractViews(host: HttpHost, repos: ServedRepo[], trust: CallerTrust, action: 'list' | 'check'): Promise<Json> {
  if (repos.length === 0) return action === 'list' ? { contracts: [] } : { issues: [], summary: { total: 0, breaking: 0, warning: 0, info: 0 } };
  const answer = await ask(host, repos[0]!.name, trust, 'contracts', { action, repos: repos.map((r) => r.name), limit: 5000 });
  return action === 'list' ? { contracts: answer.contracts, total: answer.total, counts: answer.counts } : { issues: answer.issues, summary: answer.summary };
}

/** `GET /v1/dashboard`: the whole page in one answer. */
export async function dashboard(host: HttpHost, repos: ServedRepo[], trust: CallerTrust, activity: Json[], crossCallers: (id: string) => string[]): Promise<Json> {
  const kinds: Record<string, number> = {};
  const languages: Record<string, number> = {};
  let nodes = 0;
  let edges = 0;
  for (const repo of repos) {
    const stats = repo.ctx.engine.stats(repo.ctx.repo);
    nodes += stats.nodes;
    edges += stats.edges;
    for (const [k, n] of Object.entries(stats.nodes_by_kind)) kinds[k] = (kinds[k] ?? 0) + n;
    for (const [l, c] of Object.entries(languagesOf(repo))) languages[l] = (languages[l] ?? 0) + c.files;
  }
  const caveats = await caveatRows(host, repos, trust, crossCallers);
  const byCount = (record: Record<string, number>): { name: string; count: number }[] =>
    Object.entries(record)
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return {
    stats: { total_nodes: nodes, total_edges: edges, repos: repos.length, caveats: caveats.length, version: packageVersion() },
    kinds: byCount(kinds),
    languages: byCount(languages),
    repos: await repoRows(repos),
    activity,
    caveats,
    processes: (await processRows(host, repos, trust, 50)).slice(0, 20),
  };
}
