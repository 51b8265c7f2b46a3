/**
 * The forge half of the PR family: `list_prs` (open PRs with a review state, a CI rollup and merge
 * blockers), `triage_prs` (open PRs ranked by `get_pr_impact` risk), `conflicts_prs` (PRs touching
 * the same files and graph communities, and a safe merge order) and `post_review` (review findings
 * posted as one review with line-anchored comments, secret-redacted). Each reads the forge
 * through `forge-client.ts`, or takes the PR data from the caller and then needs no network.
 */
import { z } from 'zod';
import { git, gitInfo } from '../support/git';
import { redactSecrets } from '../support/redact';
import type { ToolContext } from '../workspace/context';
import { clientFor, forgeName, resolveForgeRepo, type ForgeClient, type ForgeRepo } from './forge-client';
import { patchRanges, prImpact, type PrFile } from './pr';
import { modelRanking } from './review-llm';
import { defineTool, ToolInputError } from './registry';
import { runReview } from './review';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** A pull / merge request in one shape, whichever forge (or caller) it came from. */
export interface Pr {
  number: number;
  title: string;
  author: string | null;
  url: string | null;
  draft: boolean;
  base: string | null;
  head: string | null;
  head_sha: string | null;
  default_branch: string | null;
  updated_at: string | null;
  mergeable_state: string | null;
  /** The head branch lives in another repository (or one since deleted). */
  fork: boolean;
  reviews: { user: string; state: string; submitted_at: string | null }[];
  statuses: { context: string; state: string }[];
  check_runs: { name: string; status: string; conclusion: string | null }[];
  /** GitLab's own verdicts (it has no per-review states). */
  approved_by?: string[];
  changes_requested?: boolean;
  files?: PrFile[];
}

/** The review state labels, in precedence order. */
export const PR_STATES = ['DRAFT', 'BASE_MISMATCH', 'CHANGES_REQUESTED', 'APPROVED', 'STALE', 'READY'] as const;

/** Check-run conclusions that count as passing. */
const PASSING = new Set(['success', 'neutral', 'skipped']);

/** A caller-supplied PR (GitHub's REST shape, optionally with `reviews`, `statuses`, `check_runs`, `files`) in the common shape. */
export function prFromGitHub(raw: Json): Pr {
  if (!raw || typeof raw !== 'object' || !Number.isInteger(raw.number)) {
    throw new ToolInputError('invalid_argument', 'each of prs needs number (and, as GitHub lists pulls, title, draft, base, head, updated_at)');
  }
  const statusList: Json[] = Array.isArray(raw.statuses) ? raw.statuses : Array.isArray(raw.statuses?.statuses) ? raw.statuses.statuses : [];
  const checkList: Json[] = Array.isArray(raw.check_runs) ? raw.check_runs : Array.isArray(raw.check_runs?.check_runs) ? raw.check_runs.check_runs : [];
  // Statuses listed newest first: the first of each context is its current state.
  const seen = new Set<string>();
  const statuses = statusList
    .map((s) => ({ context: String(s?.context ?? 'default'), state: String(s?.state ?? '').toLowerCase() }))
    .filter((s) => !seen.has(s.context) && seen.add(s.context));
  const headRepo = raw.head?.repo;
  const baseRepo = raw.base?.repo;
  return {
    number: raw.number,
    title: String(raw.title ?? ''),
    author: raw.user?.login ?? null,
    url: raw.html_url ?? null,
    draft: raw.draft === true,
    base: raw.base?.ref ?? null,
    head: raw.head?.ref ?? null,
    head_sha: raw.head?.sha ?? null,
    default_branch: baseRepo?.default_branch ?? null,
    updated_at: raw.updated_at ?? null,
    mergeable_state: raw.mergeable_state ?? null,
    fork: raw.head !== undefined && (headRepo === null || (headRepo?.full_name !== undefined && baseRepo?.full_name !== undefined && headRepo.full_name !== baseRepo.full_name)),
    reviews: (Array.isArray(raw.reviews) ? raw.reviews : []).map((r: Json) => ({ user: r?.user?.login ?? '?', state: String(r?.state ?? '').toUpperCase(), submitted_at: r?.submitted_at ?? null })),
    statuses,
    check_runs: checkList.map((c) => ({ name: String(c?.name ?? 'check'), status: String(c?.status ?? 'completed'), conclusion: c?.conclusion ?? null })),
    ...(Array.isArray(raw.files) ? { files: raw.files as PrFile[] } : {}),
  };
}

/** A GitLab pipeline status as a commit status state. */
function pipelineState(status: string): string {
  if (status === 'success' || status === 'skipped') return 'success';
  if (status === 'failed' || status === 'canceled') return 'failure';
  return 'pending';
}

/** A GitLab merge request (with its approvals and latest pipeline) in the common shape. */
function prFromGitLab(mr: Json, defaultBranch: string | null, approvals: Json, pipeline: Json): Pr {
  return {
    number: mr.iid,
    title: String(mr.title ?? ''),
    author: mr.author?.username ?? null,
    url: mr.web_url ?? null,
    draft: mr.draft === true || mr.work_in_progress === true,
    base: mr.target_branch ?? null,
    head: mr.source_branch ?? null,
    head_sha: mr.sha ?? mr.diff_refs?.head_sha ?? null,
    default_branch: defaultBranch,
    updated_at: mr.updated_at ?? null,
    mergeable_state: mr.has_conflicts ? 'dirty' : (mr.detailed_merge_status ?? null),
    fork: mr.source_project_id !== undefined && mr.source_project_id !== mr.target_project_id,
    reviews: [],
    statuses: pipeline ? [{ context: `pipeline #${pipeline.id}`, state: pipelineState(String(pipeline.status)) }] : [],
    check_runs: [],
    approved_by: ((approvals?.approved_by ?? []) as Json[]).map((a) => a?.user?.username ?? '?'),
    changes_requested: mr.detailed_merge_status === 'requested_changes',
  };
}

/** Each reviewer's latest decisive review (comments and pending reviews decide nothing; a dismissal clears). */
function latestReviews(pr: Pr): Map<string, string> {
  const latest = new Map<string, string>();
  const ordered = [...pr.reviews].sort((a, b) => (a.submitted_at ?? '').localeCompare(b.submitted_at ?? ''));
  for (const r of ordered) {
    if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED') latest.set(r.user, r.state);
    else if (r.state === 'DISMISSED') latest.delete(r.user);
  }
  return latest;
}

/** The CI rollup of a PR's head: NONE, FAILURE, PENDING or SUCCESS, with the failing and pending checks named. */
export function ciRollup(pr: Pr): { rollup: 'NONE' | 'FAILURE' | 'PENDING' | 'SUCCESS'; failing: string[]; pending: string[]; checks: number } {
  const failing: string[] = [];
  const pending: string[] = [];
  let checks = 0;
  for (const s of pr.statuses) {
    checks++;
    if (s.state === 'failure' || s.state === 'error') failing.push(s.context);
    else if (s.state !== 'success') pending.push(s.context);
  }
  for (const c of pr.check_runs) {
    checks++;
    if (c.status !== 'completed') pending.push(c.name);
    else if (c.conclusion === 'stale' || c.conclusion === null) pending.push(c.name);
    else if (!PASSING.has(c.conclusion)) failing.push(c.name);
  }
  const rollup = checks === 0 ? 'NONE' : failing.length > 0 ? 'FAILURE' : pending.length > 0 ? 'PENDING' : 'SUCCESS';
  return { rollup, failing, pending, checks };
}

/** One PR's review state, CI rollup and merge blockers. */
export function classifyPr(pr: Pr, opts: { base?: string | undefined; staleDays: number; now: number }): Json {
  const latest = latestReviews(pr);
  const requestedBy = [...latest].filter(([, s]) => s === 'CHANGES_REQUESTED').map(([u]) => u).sort();
  const approvedBy = [...new Set([...[...latest].filter(([, s]) => s === 'APPROVED').map(([u]) => u), ...(pr.approved_by ?? [])])].sort();
  const changesRequested = requestedBy.length > 0 || pr.changes_requested === true;
  const expectedBase = opts.base ?? pr.default_branch;
  const baseMismatch = expectedBase !== null && expectedBase !== undefined && pr.base !== null && pr.base !== expectedBase;
  const updated = pr.updated_at ? Date.parse(pr.updated_at) : NaN;
  const idleDays = Number.isNaN(updated) ? null : Math.floor((opts.now - updated) / 86_400_000);
  const stale = idleDays !== null && idleDays >= opts.staleDays;
  const ci = ciRollup(pr);
  const state = pr.draft ? 'DRAFT' : baseMismatch ? 'BASE_MISMATCH' : changesRequested ? 'CHANGES_REQUESTED' : approvedBy.length > 0 ? 'APPROVED' : stale ? 'STALE' : 'READY';
  const blockers: { code: string; message: string }[] = [];
  if (pr.draft) blockers.push({ code: 'draft', message: 'still a draft: mark it ready for review' });
  if (pr.mergeable_state === 'dirty') blockers.push({ code: 'conflicts', message: `conflicts with ${pr.base ?? 'its base'}: rebase or merge the base in` });
  if (ci.rollup === 'FAILURE') blockers.push({ code: 'ci_failing', message: `failing checks: ${ci.failing.join(', ')}` });
  if (changesRequested) blockers.push({ code: 'changes_requested', message: requestedBy.length > 0 ? `changes requested by ${requestedBy.join(', ')}` : 'changes requested' });
  if (baseMismatch) blockers.push({ code: 'base_mismatch', message: `targets ${pr.base}, not ${expectedBase}` });
  return {
    number: pr.number,
    title: pr.title,
    author: pr.author,
    state,
    ci: { rollup: ci.rollup, ...(ci.failing.length > 0 ? { failing: ci.failing } : {}), ...(ci.pending.length > 0 ? { pending: ci.pending } : {}) },
    blockers,
    mergeable: blockers.length === 0,
    base: pr.base,
    head: pr.head,
    ...(approvedBy.length > 0 ? { approved_by: approvedBy } : {}),
    ...(idleDays !== null ? { idle_days: idleDays } : {}),
    ...(pr.fork ? { fork: true } : {}),
    ...(pr.url ? { url: pr.url } : {}),
  };
}

/** Open PRs from the forge, at most `limit`, each with what classification needs (`withStatus`) or only the list. */
async function fetchOpenPrs(c: ForgeClient, limit: number, withStatus: boolean): Promise<{ prs: Pr[]; truncated: boolean }> {
  if (c.repo.kind === 'github') {
    const listed = await c.list(`${c.base}/pulls?state=open`);
    const prs: Pr[] = [];
    for (const raw of listed.rows.slice(0, limit)) {
      if (withStatus) {
        raw.reviews = (await c.list(`${c.base}/pulls/${raw.number}/reviews`)).rows;
        if (raw.head?.sha) {
          raw.statuses = await c.get(`${c.base}/commits/${raw.head.sha}/status`);
          raw.check_runs = (await c.list(`${c.base}/commits/${raw.head.sha}/check-runs`)).rows;
        }
      }
      prs.push(prFromGitHub(raw));
    }
    return { prs, truncated: listed.truncated || listed.rows.length > limit };
  }
  const project = withStatus ? await c.get(c.base) : null;
  const listed = await c.list(`${c.base}/merge_requests?state=opened`);
  const prs: Pr[] = [];
  for (const mr of listed.rows.slice(0, limit)) {
    const approvals = withStatus ? await c.get(`${c.base}/merge_requests/${mr.iid}/approvals`) : null;
    const pipeline = withStatus ? (await c.list(`${c.base}/merge_requests/${mr.iid}/pipelines`)).rows[0] : null;
    prs.push(prFromGitLab(mr, project?.default_branch ?? null, approvals, pipeline));
  }
  return { prs, truncated: listed.truncated || listed.rows.length > limit };
}

/** A PR's changed files from the forge (GitHub's pull files, GitLab's MR changes) as `PrFile`s. */
async function fetchPrFiles(c: ForgeClient, number: number): Promise<PrFile[]> {
  if (c.repo.kind === 'github') {
    return (await c.list(`${c.base}/pulls/${number}/files`)).rows.map((f: Json) => ({
      filename: f.filename,
      status: f.status,
      ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
      ...(typeof f.patch === 'string' ? { patch: f.patch } : {}),
    }));
  }
  const mr = await c.get(`${c.base}/merge_requests/${number}/changes`);
  return ((mr?.changes ?? []) as Json[]).map((f) => ({
    path: f.new_path,
    status: f.deleted_file ? 'removed' : f.new_file ? 'added' : f.renamed_file ? 'renamed' : 'modified',
    ...(f.renamed_file ? { previous_filename: f.old_path } : {}),
    ...(typeof f.diff === 'string' ? { patch: f.diff } : {}),
  }));
}

/** The arguments every forge-reading tool takes. */
const forgeInput = {
  forge_repo: z.string().optional().describe('The forge repository as "owner/name" (GitLab: the project path); default: the origin remote'),
  prs: z
    .array(z.record(z.string(), z.unknown()))
    .max(500)
    .optional()
    .describe('Already-fetched open PRs in GitHub\'s REST shape (number, title, draft, base, head, updated_at, mergeable_state; optional reviews, statuses, check_runs, files): no network call'),
  limit: z.number().int().min(1).max(100).optional().describe('Most open PRs read from the forge (default 30)'),
};

/** Open PRs: the caller's, or the forge's; with where they came from. */
async function openPrs(ctx: ToolContext, args: Json, tool: string, withStatus: boolean): Promise<{ prs: Pr[]; source: string; repo: ForgeRepo | null; client: ForgeClient | null; truncated: boolean }> {
  if (args.prs !== undefined) {
    // The forge is only needed later if some PR lacks files; name it lazily so offline calls need no remote.
    return { prs: (args.prs as Json[]).map(prFromGitHub), source: 'caller', repo: null, client: null, truncated: false };
  }
  const repo = await resolveForgeRepo(ctx.root, args.forge_repo);
  const client = clientFor(repo, tool, 'prs (the already-fetched pull requests)');
  const got = await fetchOpenPrs(client, args.limit ?? 30, withStatus);
  return { prs: got.prs, source: repo.kind, repo, client, truncated: got.truncated };
}

/** Every PR's changed files: the caller's `files`, or the forge's (one request per PR). */
async function withFiles(ctx: ToolContext, args: Json, tool: string, found: Awaited<ReturnType<typeof openPrs>>): Promise<void> {
  for (const pr of found.prs) {
    if (pr.files !== undefined) continue;
    if (!found.client) {
      found.repo = await resolveForgeRepo(ctx.root, args.forge_repo);
      found.client = clientFor(found.repo, tool, `prs[].files (PR #${pr.number} has none)`);
    }
    pr.files = await fetchPrFiles(found.client, pr.number);
  }
}

/** Risk of one PR's files, by `get_pr_impact`. */
async function riskOf(ctx: ToolContext, pr: Pr): Promise<Json> {
  const impact = await prImpact(ctx, { files: pr.files ?? [] });
  return impact;
}

/** Levels from least to most risky, for tie-breaks. */
const LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

/** The file paths a PR changes (old and new names of a rename). */
function pathsOf(pr: Pr): string[] {
  const out = new Set<string>();
  for (const f of pr.files ?? []) {
    const p = f.path ?? f.filename;
    if (p) out.add(p);
    if (f.previous_filename) out.add(f.previous_filename);
  }
  return [...out].sort();
}

/**
 * The graph communities with a member in `path`, by `get_communities`' `path_prefix` filter. The
 * filter is a prefix, so `a.ts` also matches `a.tsx`: a file's communities may include a
 * same-prefixed neighbour's.
 */
function communitiesOf(ctx: ToolContext, path: string, cache: Map<string, { id: number; label: string }[]>): { id: number; label: string }[] {
  const hit = cache.get(path);
  if (hit) return hit;
  const list = ctx.engine.query('get_communities', { path_prefix: path, limit: 1000 }, { repo: ctx.repo }) as Json;
  const rows = ((list?.communities ?? []) as Json[]).map((c) => ({ id: Number(c.id), label: String(c.label) }));
  cache.set(path, rows);
  return rows;
}

/** Severity order of review findings, for the verdict of caller-supplied findings. */
function verdictOf(findings: readonly Json[]): 'BLOCK' | 'REVIEW' | 'APPROVE' {
  if (findings.some((f) => f.severity === 'critical' || f.severity === 'error')) return 'BLOCK';
  if (findings.some((f) => f.severity === 'warning')) return 'REVIEW';
  return 'APPROVE';
}


/** One finding as an inline comment's body (not yet redacted). */
function commentBody(f: Json): string {
  const head = `**${String(f.severity ?? 'info').toUpperCase()}**${f.rule ? ` \`${f.rule}\`` : ''}: ${f.message}`;
  return f.fix ? `${head}\n\nSuggested fix: ${f.fix}` : head;
}

/** The review's summary body (not yet redacted): verdict, counts, and the findings no diff line could anchor. */
function summaryBody(verdict: string, findings: readonly Json[], outside: readonly Json[], extra: string | undefined): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(String(f.severity ?? 'info'), (counts.get(String(f.severity ?? 'info')) ?? 0) + 1);
  const tally = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  const lines = [`**gortex review: ${verdict}** — ${findings.length === 0 ? 'no findings' : `${findings.length} finding${findings.length === 1 ? '' : 's'} (${tally})`}.`];
  if (extra) lines.push('', extra);
  if (outside.length > 0) {
    lines.push('', 'Findings on lines outside the diff:');
    for (const f of outside) lines.push(`- \`${f.path}:${f.line}\` ${commentBody(f).replace(/\n+/g, ' ')}`);
  }
  return lines.join('\n');
}

/** Which findings a diff can anchor (their line falls in a hunk of their file), and which it cannot. */
function splitByDiff(findings: readonly Json[], files: readonly PrFile[] | null): { anchored: Json[]; outside: Json[] } {
  if (files === null) return { anchored: [...findings], outside: [] };
  const ranges = new Map<string, [number, number][]>();
  for (const f of files) {
    const p = f.path ?? f.filename;
    if (p && f.patch) ranges.set(p, patchRanges(f.patch));
  }
  const anchored: Json[] = [];
  const outside: Json[] = [];
  for (const f of findings) (ranges.get(f.path)?.some(([a, b]) => f.line >= a && f.line <= b) ? anchored : outside).push(f);
  return { anchored, outside };
}

/** Redacts every body of the review before any payload exists, counting what was removed. */
function redactedReview(verdict: string, findings: readonly Json[], outside: readonly Json[], extra: string | undefined): { summary: string; bodies: Map<Json, string>; redacted: number } {
  let redacted = 0;
  const clean = (t: string): string => {
    const r = redactSecrets(t);
    redacted += r.redacted;
    return r.text;
  };
  const bodies = new Map<Json, string>();
  for (const f of findings) if (!outside.includes(f)) bodies.set(f, clean(commentBody(f)));
  const summary = clean(summaryBody(verdict, findings, outside, extra));
  return { summary, bodies, redacted };
}

/** The refusal of posting where the bodies would be public, unless confirmed. */
function publicRefusal(slug: string, isPublic: boolean, fork: boolean, confirmed: boolean): void {
  if (confirmed || (!isPublic && !fork)) return;
  const why = isPublic ? `${slug} is a public repository, so the review's bodies (messages, code excerpts) become readable by anyone` : 'the PR comes from a fork, so its author outside this repository receives the review\'s bodies';
  throw new ToolInputError('invalid_argument', `post_review: ${why}; pass confirm_public: true to post anyway, or dry_run: true to see exactly what would be posted`);
}

/** The finding shape `post_review` takes. */
const findingInput = z.object({
  rule: z.string().optional(),
  severity: z.string().optional(),
  path: z.string(),
  line: z.number().int().min(1),
  end_line: z.number().int().min(1).optional(),
  message: z.string(),
  fix: z.string().optional(),
});

/** The forge tools. */
export const forgeTools = [
  defineTool({
    name: 'list_prs',
    category: 'pr',
    effect: 'read',
    description:
      'List open PRs with a review state — DRAFT / BASE_MISMATCH / CHANGES_REQUESTED / APPROVED / STALE / READY —, a CI rollup (NONE / FAILURE / PENDING / SUCCESS from statuses and check runs) and merge blockers (draft, conflicts, failing CI, changes requested, base mismatch). Reads GitHub or GitLab (GH_TOKEN / GITLAB_TOKEN), or classifies the prs you pass with no network call.',
    input: {
      ...forgeInput,
      base: z.string().optional().describe('The branch PRs should target (default: the repository\'s default branch); others are BASE_MISMATCH'),
      stale_days: z.number().int().min(1).max(3650).optional().describe('Days without an update that make a PR STALE (default 14)'),
      as_of: z.string().optional().describe('Judge staleness as of this time (ISO 8601; default now)'),
    },
    handler: async (ctx, args) => {
      const now = args.as_of !== undefined ? Date.parse(args.as_of) : Date.now();
      if (Number.isNaN(now)) throw new ToolInputError('invalid_argument', `as_of ${JSON.stringify(args.as_of)} is not an ISO 8601 time such as 2024-05-01T00:00:00Z`);
      const found = await openPrs(ctx, args, 'list_prs', true);
      const prs = found.prs.map((pr) => classifyPr(pr, { base: args.base, staleDays: args.stale_days ?? 14, now }));
      const counts: Record<string, number> = {};
      for (const p of prs) counts[p.state] = (counts[p.state] ?? 0) + 1;
      return {
        ...(found.repo ? { repo: found.repo.slug } : {}),
        source: found.source,
        prs,
        total: prs.length,
        counts,
        ...(found.truncated ? { truncated: true } : {}),
      };
    },
  }),
  defineTool({
    name: 'triage_prs',
    category: 'pr',
    effect: 'read',
    description:
      'Rank open PRs by graph-derived review priority: get_pr_impact per PR (its files mapped to symbols; five risk axes, level, score), ordered by score, then level, then changed symbols, then number — deterministic; use_llm re-ranks with one pass of the configured model and a rationale per PR. Answers which PR to review first, with each one\'s top review priorities. Reads the forge, or the prs (with files) you pass.',
    input: { ...forgeInput, use_llm: z.boolean().optional().describe('Re-rank with one compact pass of the configured language model, a rationale per PR (the graph rank is kept beside it)') },
    handler: async (ctx, args) => {
      const found = await openPrs(ctx, args, 'triage_prs', false);
      await withFiles(ctx, args, 'triage_prs', found);
      const rows: Json[] = [];
      for (const pr of found.prs) {
        const impact = await riskOf(ctx, pr);
        rows.push({
          number: pr.number,
          title: pr.title,
          author: pr.author,
          level: impact.risk.level,
          score: impact.risk.score,
          changed: impact.changed,
          dependents: impact.affected?.dependents ?? 0,
          top_priorities: ((impact.risk.review_priorities ?? []) as Json[]).slice(0, 3).map((p) => ({ id: p.id, file: p.file_path, line: p.start_line, callers: p.callers })),
          ...(impact.unknown?.length > 0 ? { unknown_files: impact.unknown } : {}),
          ...(pr.draft ? { draft: true } : {}),
        });
      }
      rows.sort((a, b) => b.score - a.score || LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level) || b.changed.symbols - a.changed.symbols || a.number - b.number);
      const graphOrder = 'risk score, then level, then changed symbols (descending), then PR number';
      const deterministic = rows.map((r, i) => ({ rank: i + 1, ...r }));
      const reranked = args.use_llm ? await modelRanking(ctx, deterministic) : undefined;
      return {
        ...(found.repo ? { repo: found.repo.slug } : {}),
        source: found.source,
        ranked: reranked ? reranked.rows.map(({ rank, ...r }, i) => ({ rank: i + 1, graph_rank: rank, ...r })) : deterministic,
        total: rows.length,
        ...(found.truncated ? { truncated: true } : {}),
        order: reranked?.llm.used ? `the model's order, with its rationale (graph_rank: ${graphOrder})` : graphOrder,
        ...(reranked ? { llm: reranked.llm } : {}),
      };
    },
  }),
  defineTool({
    name: 'conflicts_prs',
    category: 'pr',
    effect: 'read',
    description:
      'Merge-order conflict risk of the open PRs: which touch the same files and the same graph communities (each changed file mapped to the communities with members there), the colliding PR pairs with a conflict-risk score, and a safe merge order — fewest overlaps, then lowest get_pr_impact risk, first — each step explained.',
    input: forgeInput,
    handler: async (ctx, args) => {
      const found = await openPrs(ctx, args, 'conflicts_prs', false);
      await withFiles(ctx, args, 'conflicts_prs', found);
      const cache = new Map<string, { id: number; label: string }[]>();
      const labels = new Map<number, string>();
      const info = new Map<number, { files: string[]; communities: number[]; score: number; level: string }>();
      for (const pr of found.prs) {
        const files = pathsOf(pr);
        const communities = new Set<number>();
        for (const p of files) for (const c of communitiesOf(ctx, p, cache)) {
          communities.add(c.id);
          labels.set(c.id, c.label);
        }
        const impact = await riskOf(ctx, pr);
        info.set(pr.number, { files, communities: [...communities].sort((a, b) => a - b), score: impact.risk.score, level: impact.risk.level });
      }
      const numbers = found.prs.map((p) => p.number).sort((a, b) => a - b);
      const pairs: Json[] = [];
      const overlaps = new Map<number, Set<number>>(numbers.map((n) => [n, new Set()]));
      for (let i = 0; i < numbers.length; i++) {
        for (let j = i + 1; j < numbers.length; j++) {
          const a = info.get(numbers[i]!)!;
          const b = info.get(numbers[j]!)!;
          const files = a.files.filter((f) => b.files.includes(f));
          const communities = a.communities.filter((c) => b.communities.includes(c));
          if (files.length === 0 && communities.length === 0) continue;
          overlaps.get(numbers[i]!)!.add(numbers[j]!);
          overlaps.get(numbers[j]!)!.add(numbers[i]!);
          // A shared file is a likely textual conflict; a shared community a likely semantic one.
          const risk = Math.min(100, 40 * files.length + 15 * communities.length);
          pairs.push({ prs: [numbers[i], numbers[j]], shared_files: files, shared_communities: communities.map((id) => ({ id, label: labels.get(id) })), conflict_risk: risk });
        }
      }
      pairs.sort((x, y) => y.conflict_risk - x.conflict_risk || x.prs[0] - y.prs[0] || x.prs[1] - y.prs[1]);
      const byCommunity = new Map<number, number[]>();
      for (const n of numbers) for (const c of info.get(n)!.communities) byCommunity.set(c, [...(byCommunity.get(c) ?? []), n]);
      const communities = [...byCommunity]
        .filter(([, prs]) => prs.length > 1)
        .map(([id, prs]) => ({ id, label: labels.get(id), prs }))
        .sort((x, y) => y.prs.length - x.prs.length || x.id - y.id);
      const byFile = new Map<string, number[]>();
      for (const n of numbers) for (const f of info.get(n)!.files) byFile.set(f, [...(byFile.get(f) ?? []), n]);
      const files = [...byFile].filter(([, prs]) => prs.length > 1).map(([path, prs]) => ({ path, prs })).sort((x, y) => y.prs.length - x.prs.length || x.path.localeCompare(y.path));
      const order = [...numbers].sort((a, b) => overlaps.get(a)!.size - overlaps.get(b)!.size || info.get(a)!.score - info.get(b)!.score || a - b);
      const merged = new Set<number>();
      const mergeOrder = order.map((n, i) => {
        const others = [...overlaps.get(n)!].sort((a, b) => a - b);
        const i2 = info.get(n)!;
        const after = others.filter((o) => merged.has(o));
        merged.add(n);
        const overlapText = others.length === 0 ? 'overlaps no other PR' : `overlaps ${others.map((o) => `#${o}`).join(', ')}`;
        const rebase = after.length > 0 ? `; rebase it on ${after.map((o) => `#${o}`).join(', ')} first` : '';
        return { step: i + 1, number: n, overlaps: others.length, risk: { score: i2.score, level: i2.level }, why: `${overlapText}, risk ${i2.level} ${i2.score}${rebase}` };
      });
      const maxRisk = pairs.reduce((m, p) => Math.max(m, p.conflict_risk), 0);
      return {
        ...(found.repo ? { repo: found.repo.slug } : {}),
        source: found.source,
        prs: numbers.map((n) => ({ number: n, files: info.get(n)!.files.length, communities: info.get(n)!.communities, risk: { score: info.get(n)!.score, level: info.get(n)!.level } })),
        colliding_pairs: pairs,
        shared_communities: communities,
        shared_files: files,
        conflict_risk: maxRisk,
        merge_order: mergeOrder,
        method:
          'communities: each changed file maps to the graph communities with a member under its path (get_communities path_prefix); conflict_risk per pair = 40 × shared files + 15 × shared communities, capped at 100; merge order: fewest overlapping PRs, then lowest risk score, then PR number',
      };
    },
  }),
  defineTool({
    name: 'post_review',
    category: 'pr',
    effect: 'external_write',
    description:
      'Post review findings to a GitHub PR / GitLab MR as ONE review: inline comments anchored to file + line (findings outside the diff go in the summary), REQUEST_CHANGES on a BLOCK verdict. Findings are given, or reviewed from the working tree against base. Every body is secret-redacted before any payload is built; public repos and fork PRs need confirm_public: true; dry_run: true returns the would-post payloads with no network call.',
    input: {
      number: z.number().int().min(1).describe('The PR (GitHub) or MR iid (GitLab) number'),
      forge_repo: forgeInput.forge_repo,
      findings: z.array(findingInput).max(500).optional().describe('Findings to post ({path, line, message, severity, rule, fix}, as review answers them); default: run review against base'),
      base: z.string().optional().describe('Without findings: review the working tree against this ref (the PR\'s base, e.g. origin/main)'),
      verdict: z.enum(['BLOCK', 'REVIEW', 'APPROVE']).optional().describe('The verdict of given findings (default: BLOCK on critical/error, REVIEW on warning, else APPROVE)'),
      summary: z.string().max(20_000).optional().describe('Extra text for the review body'),
      commit_id: z.string().regex(/^[0-9a-f]{7,64}$/).optional().describe('The commit to anchor to (default: the PR head; with dry_run, the local HEAD)'),
      confirm_public: z.boolean().optional().describe('Post even though the repository is public or the PR comes from a fork'),
      dry_run: z.boolean().optional().describe('Return the exact payloads without any network call'),
    },
    handler: async (ctx, args) => {
      let findings: Json[];
      let verdict: string;
      if (args.findings !== undefined) {
        findings = args.findings;
        verdict = args.verdict ?? verdictOf(findings);
      } else {
        if (args.base === undefined) throw new ToolInputError('invalid_argument', 'post_review needs findings, or base (the PR\'s base ref, e.g. origin/main) to review the working tree against it');
        const review = await runReview(ctx, { base: args.base });
        findings = (review.findings as Json[]).map((f) => ({ rule: f.rule, severity: f.severity, path: f.path, line: f.line, end_line: f.end_line, message: f.message, fix: f.fix }));
        verdict = args.verdict ?? review.verdict;
      }
      const repo = await resolveForgeRepo(ctx.root, args.forge_repo);
      const event = verdict === 'BLOCK' ? 'REQUEST_CHANGES' : 'COMMENT';
      if (args.dry_run) return dryRun(ctx, repo, args, findings, verdict, event);
      const client = clientFor(repo, 'post_review', 'dry_run: true (to see the payloads without posting)');
      return repo.kind === 'github' ? postGitHub(client, args, findings, verdict, event) : postGitLab(client, args, findings, verdict);
    },
  }),
];

/** The payloads `post_review` would send, built from local facts only (no visibility or diff lookup). */
async function dryRun(ctx: ToolContext, repo: ForgeRepo, args: Json, findings: Json[], verdict: string, event: string): Promise<Json> {
  const { summary, bodies, redacted } = redactedReview(verdict, findings, [], args.summary);
  const head = args.commit_id ?? (await gitInfo(ctx.root)).head ?? null;
  const common = { dry_run: true, forge: repo.kind, repo: repo.slug, number: args.number, verdict, visibility: 'unchecked', redacted, anchored: findings.length, outside_diff: 0 };
  const note = 'nothing was sent; visibility, fork status and the diff anchors were not checked (posting checks them)';
  if (repo.kind === 'github') {
    const body = { ...(head ? { commit_id: head } : {}), event, body: summary, comments: findings.map((f) => ({ path: f.path, line: f.line, side: 'RIGHT', body: bodies.get(f)! })) };
    return { ...common, event, requests: [{ method: 'POST', path: `/repos/${repo.slug}/pulls/${args.number}/reviews`, body }], note };
  }
  let baseSha: string | null = null;
  if (args.base !== undefined && head) {
    const mb = await git(ctx.root, ['merge-base', args.base, head]);
    if (mb.ok) baseSha = mb.stdout.trim();
  }
  const project = `/projects/${encodeURIComponent(repo.slug)}/merge_requests/${args.number}`;
  const requests = [
    ...findings.map((f) => ({
      method: 'POST',
      path: `${project}/discussions`,
      body: { body: bodies.get(f)!, position: { position_type: 'text', base_sha: baseSha, start_sha: baseSha, head_sha: head, new_path: f.path, new_line: f.line } },
    })),
    { method: 'POST', path: `${project}/notes`, body: { body: summary } },
  ];
  return { ...common, requests, note: `${note}; posting takes base_sha/start_sha/head_sha from the MR's diff_refs` };
}

/** GitHub: visibility and fork check, the diff's anchors, then one review with inline comments. */
async function postGitHub(c: ForgeClient, args: Json, findings: Json[], verdict: string, event: string): Promise<Json> {
  const repo = await c.get(c.base);
  const pull = await c.get(`${c.base}/pulls/${args.number}`);
  const isPublic = repo?.private === false || repo?.visibility === 'public';
  const fork = prFromGitHub(pull).fork;
  publicRefusal(c.repo.slug, isPublic, fork, args.confirm_public === true);
  const files = (await c.list(`${c.base}/pulls/${args.number}/files`)).rows.map((f: Json) => ({ filename: f.filename, ...(typeof f.patch === 'string' ? { patch: f.patch } : {}) }));
  const { anchored, outside } = splitByDiff(findings, files);
  const { summary, bodies, redacted } = redactedReview(verdict, findings, outside, args.summary);
  const commit = args.commit_id ?? pull?.head?.sha;
  const payload = { ...(commit ? { commit_id: commit } : {}), event, body: summary, comments: anchored.map((f) => ({ path: f.path, line: f.line, side: 'RIGHT', body: bodies.get(f)! })) };
  const posted = await c.post(`${c.base}/pulls/${args.number}/reviews`, payload);
  return {
    posted: true,
    forge: 'github',
    repo: c.repo.slug,
    number: args.number,
    verdict,
    event,
    review_id: posted?.id ?? null,
    ...(posted?.html_url ? { url: posted.html_url } : {}),
    visibility: isPublic ? 'public' : 'private',
    ...(fork ? { fork: true } : {}),
    anchored: anchored.length,
    outside_diff: outside.length,
    redacted,
    requests: c.requests.length,
  };
}

/** GitLab: visibility and fork check, the MR's diff_refs and changes, one discussion per anchored finding and one summary note. */
async function postGitLab(c: ForgeClient, args: Json, findings: Json[], verdict: string): Promise<Json> {
  const project = await c.get(c.base);
  const mrPath = `${c.base}/merge_requests/${args.number}`;
  const mr = await c.get(mrPath);
  const isPublic = project?.visibility === 'public';
  const fork = mr?.source_project_id !== undefined && mr.source_project_id !== mr.target_project_id;
  publicRefusal(c.repo.slug, isPublic, fork, args.confirm_public === true);
  const refs = mr?.diff_refs;
  if (!refs?.base_sha || !refs?.head_sha) throw new ToolInputError('unavailable', `${forgeName('gitlab')} MR !${args.number} has no diff_refs yet (its diff is still being prepared): try again in a moment`);
  const changes = await c.get(`${mrPath}/changes`);
  const files: PrFile[] = ((changes?.changes ?? []) as Json[]).map((f) => ({ path: f.new_path, ...(typeof f.diff === 'string' ? { patch: f.diff } : {}) }));
  const { anchored, outside } = splitByDiff(findings, files);
  const { summary, bodies, redacted } = redactedReview(verdict, findings, outside, args.summary);
  const discussions: Json[] = [];
  for (const f of anchored) {
    const d = await c.post(`${mrPath}/discussions`, {
      body: bodies.get(f)!,
      position: { position_type: 'text', base_sha: refs.base_sha, start_sha: refs.start_sha ?? refs.base_sha, head_sha: args.commit_id ?? refs.head_sha, new_path: f.path, new_line: f.line },
    });
    discussions.push(d?.id ?? null);
  }
  const note = await c.post(`${mrPath}/notes`, { body: summary });
  return {
    posted: true,
    forge: 'gitlab',
    repo: c.repo.slug,
    number: args.number,
    verdict,
    discussions: discussions.length,
    note_id: note?.id ?? null,
    visibility: project?.visibility ?? 'unknown',
    ...(fork ? { fork: true } : {}),
    anchored: anchored.length,
    outside_diff: outside.length,
    redacted,
    requests: c.requests.length,
  };
}
