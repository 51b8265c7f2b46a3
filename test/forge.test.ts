/**
 * The forge tools through the real doors — `gortex mcp` over stdio and the `gortex prs` verbs —
 * against a local HTTP server replaying recorded GitHub REST v3 and GitLab REST v4 answers
 * (`test/fixtures/forge/{github,gitlab}`, one file per `METHOD path`), recording every request:
 * `list_prs` states, CI rollups and blockers, `triage_prs` order, `conflicts_prs`, `post_review`
 * payloads (anchors, redaction, REQUEST_CHANGES, GitLab discussions), `dry_run`, the public and
 * fork refusals, the missing-token and forge-error messages, and caller-supplied PRs offline.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { runCliAsync, unwrapCliError } from './helpers/cli';
import { FIXTURES, gitRepo, tempHome } from './helpers/repo';

/** One request the fake forge saw. */
interface Seen {
  method: string;
  path: string;
  url: string;
  auth: string | undefined;
  body: any;
}

/** A local forge answering from `test/fixtures/forge/<kind>`; 401 for the token `bad-token`, 404 for unknown routes. */
async function fakeForge(kind: 'github' | 'gitlab'): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const dir = path.join(FIXTURES, 'forge', kind);
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const p = url.replace(/\?.*$/, '').replace(/^\/api\/v4/, '');
      const auth = kind === 'github' ? req.headers.authorization : (req.headers['private-token'] as string | undefined);
      seen.push({ method: req.method!, path: p, url, auth, body: raw ? JSON.parse(raw) : undefined });
      res.setHeader('Content-Type', 'application/json');
      if (auth === 'bad-token' || auth === 'Bearer bad-token') {
        res.statusCode = 401;
        res.end(JSON.stringify({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }));
        return;
      }
      const file = path.join(dir, `${req.method}_${p.replace(/^\/+/, '').replace(/[^A-Za-z0-9.-]+/g, '_')}.json`);
      if (!fs.existsSync(file)) {
        res.statusCode = 404;
        res.end(JSON.stringify(kind === 'github' ? { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } : { message: '404 Not Found' }));
        return;
      }
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end(fs.readFileSync(file));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${kind === 'gitlab' ? '/api/v4' : ''}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

const FILES: Record<string, string> = {
  'src/pricing.ts': `export function price(qty: number, unit: number): number {
  return qty * unit;
}

export function discount(total: number, pct: number): number {
  return total - (total * pct) / 100;
}
`,
  'src/cart.ts': `import { discount, price } from './pricing';

export interface Item { qty: number; unit: number }

export function cartTotal(items: Item[]): number {
  let total = 0;
  for (const i of items) total += price(i.qty, i.unit);
  return discount(total, 5);
}

export function checkout(items: Item[]): string {
  return \`total: \${cartTotal(items)}\`;
}
`,
  'src/auth.ts': `export function hashPassword(p: string): string {
  return p.split('').reverse().join('');
}

export function login(user: string, pass: string): boolean {
  return user.length > 0 && hashPassword(pass) === 'x';
}
`,
  'src/session.ts': `import { login } from './auth';

export function startSession(user: string, pass: string): string | null {
  return login(user, pass) ? \`session:\${user}\` : null;
}
`,
  'README.md': '# shop\n',
};

/** The shop repository with `origin` at `remote`. */
function shop(remote: string): string {
  const root = gitRepo('shop', FILES);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: root });
  return root;
}

/** The GitHub fixture's pulls, as a caller would pass them (reviews, statuses, check runs and files attached). */
function recordedPrs(): any[] {
  const dir = path.join(FIXTURES, 'forge', 'github');
  const read = (name: string): any => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  return (read('GET_repos_acme_shop_pulls.json') as any[]).map((p) => ({
    ...p,
    reviews: read(`GET_repos_acme_shop_pulls_${p.number}_reviews.json`),
    statuses: read(`GET_repos_acme_shop_commits_${p.head.sha}_status.json`),
    check_runs: read(`GET_repos_acme_shop_commits_${p.head.sha}_check-runs.json`),
    files: read(`GET_repos_acme_shop_pulls_${p.number}_files.json`),
  }));
}

const AS_OF = '2024-06-01T00:00:00Z';

describe('forge tools over MCP (GitHub)', () => {
  const root = shop('https://github.com/acme/shop.git');
  let forge: Awaited<ReturnType<typeof fakeForge>>;
  let client: Client;
  beforeAll(async () => {
    forge = await fakeForge('github');
    client = await startStdio(root, 'full', { GORTEX_GITHUB_API: forge.url, GH_TOKEN: 'ghp_testtoken000000000000000000000000', GITHUB_TOKEN: '', GORTEX_FORGE: '' });
  });
  afterAll(async () => {
    await client?.close();
    await forge?.close();
  });
  beforeEach(() => {
    forge.seen.length = 0;
  });

  it('list_prs: a state, a CI rollup and blockers per open PR, from the pulls, reviews, statuses and check runs', async () => {
    const r = await okJson(client, 'list_prs', { as_of: AS_OF });
    expect(r.repo).toBe('acme/shop');
    expect(r.source).toBe('github');
    const by = Object.fromEntries(r.prs.map((p: any) => [p.number, p]));
    expect(Object.fromEntries(r.prs.map((p: any) => [p.number, [p.state, p.ci.rollup]]))).toEqual({
      101: ['APPROVED', 'SUCCESS'],
      102: ['DRAFT', 'PENDING'],
      103: ['BASE_MISMATCH', 'FAILURE'],
      104: ['CHANGES_REQUESTED', 'SUCCESS'],
      105: ['STALE', 'NONE'],
      106: ['READY', 'PENDING'],
    });
    expect(by[101].approved_by).toEqual(['bob']);
    expect(by[101].blockers).toEqual([]);
    expect(by[101].mergeable).toBe(true);
    expect(by[103].blockers.map((b: any) => b.code)).toEqual(['conflicts', 'ci_failing', 'base_mismatch']);
    expect(by[103].ci.failing).toEqual(['test']);
    expect(by[103].blockers[2].message).toBe('targets release/1.x, not main');
    expect(by[102].blockers.map((b: any) => b.code)).toEqual(['draft']);
    expect(by[104].blockers).toEqual([{ code: 'changes_requested', message: 'changes requested by dana' }]);
    expect(by[105].idle_days).toBeGreaterThanOrEqual(14);
    expect(by[106].fork).toBe(true);
    expect(by[106].ci.pending).toEqual(['ci/lint', 'build']);
    expect(r.counts).toEqual({ READY: 1, STALE: 1, CHANGES_REQUESTED: 1, BASE_MISMATCH: 1, DRAFT: 1, APPROVED: 1 });
    // Every request carried the token; the listing is paged 100 at a time.
    expect(forge.seen.every((s) => s.method === 'GET' && s.auth === 'Bearer ghp_testtoken000000000000000000000000')).toBe(true);
    expect(forge.seen[0]!.url).toBe('/repos/acme/shop/pulls?state=open&per_page=100');
    expect(forge.seen.map((s) => s.path)).toContain('/repos/acme/shop/commits/c103c103c103c103c103c103c103c103c103c103/check-runs');
  });

  it('list_prs: an explicit base makes PRs on other branches BASE_MISMATCH', async () => {
    const r = await okJson(client, 'list_prs', { as_of: AS_OF, base: 'release/1.x' });
    const states = Object.fromEntries(r.prs.map((p: any) => [p.number, p.state]));
    expect(states[103]).toBe('APPROVED');
    expect(states[101]).toBe('BASE_MISMATCH');
  });

  it('triage_prs: PRs ranked by get_pr_impact risk, deterministically', async () => {
    const r = await okJson(client, 'triage_prs', {});
    expect(r.total).toBe(6);
    const order = r.ranked.map((p: any) => p.number);
    expect(order).toEqual(TRIAGE_ORDER);
    for (let i = 1; i < r.ranked.length; i++) expect(r.ranked[i - 1].score).toBeGreaterThanOrEqual(r.ranked[i].score);
    const top = r.ranked[0];
    expect(top.rank).toBe(1);
    expect(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).toContain(top.level);
    expect(top.top_priorities.length).toBeGreaterThan(0);
    expect(r.ranked.find((p: any) => p.number === 105)).toMatchObject({ level: 'LOW', score: 0, dependents: 0 });
    expect(forge.seen.map((s) => s.path).filter((p) => p.endsWith('/files')).length).toBe(6);
    // The same call answers the same order.
    expect((await okJson(client, 'triage_prs', {})).ranked.map((p: any) => p.number)).toEqual(order);
  });

  it('conflicts_prs: shared files and communities, colliding pairs and a safe merge order', async () => {
    const r = await okJson(client, 'conflicts_prs', {});
    expect(r.shared_files).toEqual([
      { path: 'src/auth.ts', prs: [102, 106] },
      { path: 'src/pricing.ts', prs: [101, 103] },
    ]);
    const pairs = r.colliding_pairs.map((p: any) => p.prs.join('+'));
    expect(pairs).toEqual(expect.arrayContaining(['101+103', '102+106']));
    const pricing = r.colliding_pairs.find((p: any) => p.prs.join('+') === '101+103');
    expect(pricing.shared_files).toEqual(['src/pricing.ts']);
    expect(pricing.conflict_risk).toBeGreaterThanOrEqual(40);
    expect(r.merge_order.map((s: any) => s.number).sort()).toEqual([101, 102, 103, 104, 105, 106]);
    // The README-only PR overlaps nothing: it merges first.
    expect(r.merge_order[0]).toMatchObject({ step: 1, number: 105, overlaps: 0 });
    expect(r.merge_order[0].why).toMatch(/^overlaps no other PR, risk LOW 0/);
    const second = r.merge_order.find((s: any) => s.number === 103 || s.number === 101);
    const later = r.merge_order.filter((s: any) => s.number === 103 || s.number === 101)[1];
    expect(later.why).toContain(`rebase it on #${second.number} first`);
    expect(r.method).toContain('get_communities path_prefix');
  });

  it('post_review: one review with anchored comments, secrets redacted, REQUEST_CHANGES on BLOCK', async () => {
    const findings = [
      { rule: 'hardcoded-secret', severity: 'critical', path: 'src/pricing.ts', line: 6, message: "token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' is committed", fix: 'read it from the environment' },
      { rule: 'magic-number', severity: 'warning', path: 'src/cart.ts', line: 8, message: 'discount rate 7 is a magic number (AKIAIOSFODNN7EXAMPLE)' },
      { rule: 'loop-query', severity: 'warning', path: 'src/cart.ts', line: 12, message: 'outside the diff' },
    ];
    const r = await okJson(client, 'post_review', { number: 101, findings });
    expect(r).toMatchObject({ posted: true, forge: 'github', repo: 'acme/shop', number: 101, verdict: 'BLOCK', event: 'REQUEST_CHANGES', review_id: 80000001, visibility: 'private', anchored: 2, outside_diff: 1, redacted: 2 });
    expect(forge.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /repos/acme/shop',
      'GET /repos/acme/shop/pulls/101',
      'GET /repos/acme/shop/pulls/101/files',
      'POST /repos/acme/shop/pulls/101/reviews',
    ]);
    const post = forge.seen[3]!;
    expect(post.auth).toBe('Bearer ghp_testtoken000000000000000000000000');
    expect(post.body).toEqual({
      commit_id: 'a101a101a101a101a101a101a101a101a101a101',
      event: 'REQUEST_CHANGES',
      body: [
        '**gortex review: BLOCK** — 3 findings (1 critical, 2 warning).',
        '',
        'Findings on lines outside the diff:',
        '- `src/cart.ts:12` **WARNING** `loop-query`: outside the diff',
      ].join('\n'),
      comments: [
        { path: 'src/pricing.ts', line: 6, side: 'RIGHT', body: "**CRITICAL** `hardcoded-secret`: token = '[REDACTED]' is committed\n\nSuggested fix: read it from the environment" },
        { path: 'src/cart.ts', line: 8, side: 'RIGHT', body: '**WARNING** `magic-number`: discount rate 7 is a magic number ([REDACTED])' },
      ],
    });
    expect(JSON.stringify(forge.seen)).not.toContain('ghp_abcdefghij');
  });

  it('post_review: dry_run returns the payload and makes no request at all', async () => {
    const r = await okJson(client, 'post_review', { number: 101, dry_run: true, commit_id: 'a101a101a101a101a101a101a101a101a101a101', findings: [{ path: 'src/pricing.ts', line: 6, severity: 'warning', message: 'password = "hunter2hunter2"' }] });
    expect(forge.seen).toEqual([]);
    expect(r).toMatchObject({ dry_run: true, visibility: 'unchecked', verdict: 'REVIEW', event: 'COMMENT', redacted: 1 });
    expect(r.requests).toEqual([
      {
        method: 'POST',
        path: '/repos/acme/shop/pulls/101/reviews',
        body: { commit_id: 'a101a101a101a101a101a101a101a101a101a101', event: 'COMMENT', body: '**gortex review: REVIEW** — 1 finding (1 warning).', comments: [{ path: 'src/pricing.ts', line: 6, side: 'RIGHT', body: '**WARNING**: password = "[REDACTED]"' }] },
      },
    ]);
  });

  it('post_review: a public repository or a fork PR needs confirm_public', async () => {
    const pub = await callJson(client, 'post_review', { number: 7, forge_repo: 'acme/public-site', findings: [{ path: 'a.ts', line: 1, message: 'm' }] });
    expect(pub.isError).toBe(true);
    expect(pub.text).toMatch(/^invalid_argument: post_review: acme\/public-site is a public repository, so the review's bodies .* pass confirm_public: true to post anyway/);
    const fork = await callJson(client, 'post_review', { number: 106, findings: [{ path: 'src/auth.ts', line: 6, message: 'm' }] });
    expect(fork.text).toMatch(/^invalid_argument: post_review: the PR comes from a fork/);
    expect(forge.seen.some((s) => s.method === 'POST')).toBe(false);
  });

  it('a forge 404 names the endpoint, the status and what to check', async () => {
    const r = await callJson(client, 'list_prs', { forge_repo: 'acme/missing' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'unavailable: GitHub GET /repos/acme/missing/pulls?state=open&per_page=100 answered 404 Not Found (Not Found); check that acme/missing (from the forge_repo argument) and the PR number exist and that GH_TOKEN or GITHUB_TOKEN can see them',
    );
  });

  it('caller-supplied prs need no forge: list, triage and conflicts make no request', async () => {
    const prs = recordedPrs();
    const listed = await okJson(client, 'list_prs', { prs, as_of: AS_OF });
    expect(listed.source).toBe('caller');
    expect(listed.prs.map((p: any) => p.state)).toEqual(['READY', 'STALE', 'CHANGES_REQUESTED', 'BASE_MISMATCH', 'DRAFT', 'APPROVED']);
    expect((await okJson(client, 'triage_prs', { prs })).ranked.map((p: any) => p.number)).toEqual(TRIAGE_ORDER);
    expect((await okJson(client, 'conflicts_prs', { prs })).shared_files.length).toBe(2);
    expect(forge.seen).toEqual([]);
  });

  it('the compact pr facade reaches list, triage and conflicts', async () => {
    const compact = await startStdio(root, 'compact', { GORTEX_GITHUB_API: forge.url, GH_TOKEN: 'ghp_testtoken000000000000000000000000' });
    try {
      const r = await okJson(compact, 'pr', { operation: 'list', arguments: { prs: recordedPrs().slice(0, 1), as_of: AS_OF } });
      expect(r.prs[0]).toMatchObject({ number: 106, state: 'READY' });
    } finally {
      await compact.close();
    }
  });
});

/** The triage order the engine's risk gives the fixture PRs: the login changes (security keywords, callers) first, the README last. */
const TRIAGE_ORDER = [102, 106, 104, 103, 101, 105];

describe('gortex prs (CLI)', () => {
  let github: Awaited<ReturnType<typeof fakeForge>>;
  let gitlab: Awaited<ReturnType<typeof fakeForge>>;
  const ghRoot = shop('https://github.com/acme/shop.git');
  const glRoot = shop('git@gitlab.example.com:acme/shop.git');
  beforeAll(async () => {
    github = await fakeForge('github');
    gitlab = await fakeForge('gitlab');
  });
  afterAll(async () => {
    await github?.close();
    await gitlab?.close();
  });
  beforeEach(() => {
    github.seen.length = 0;
    gitlab.seen.length = 0;
  });
  const ghEnv = (token = 'ghp_testtoken000000000000000000000000') => ({ GORTEX_HOME: tempHome(), GORTEX_GITHUB_API: github.url, GH_TOKEN: token, GITHUB_TOKEN: '', GORTEX_FORGE: '' });
  const glEnv = () => ({ GORTEX_HOME: tempHome(), GORTEX_GITLAB_API: gitlab.url, GITLAB_TOKEN: 'glpat-testtoken0000000000000', GORTEX_FORGE: '' });

  it('prs list prints one line per PR with its blockers', async () => {
    const r = await runCliAsync(['prs', 'list', '--repo', ghRoot], { env: ghEnv() });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^6 open PRs in acme\/shop: /);
    expect(r.stdout).toMatch(/#103  BASE_MISMATCH {5}CI FAILURE  Round prices to cents \(@bob\)\n {6}blocked: conflicts with release\/1\.x: rebase or merge the base in/);
  });

  it('prs risk N maps the PR\'s fetched files onto the graph', async () => {
    const r = await runCliAsync(['prs', 'risk', '101', '--repo', ghRoot, '--json'], { env: ghEnv() });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.changed.files).toBe(2);
    expect(out.risk.review_priorities.map((p: any) => p.id)).toEqual(expect.arrayContaining(['shop/src/pricing.ts::discount']));
    expect(github.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /repos/acme/shop/pulls/101/files']);
  });

  it('prs post --dry-run reviews against --base and sends nothing', async () => {
    fs.writeFileSync(path.join(ghRoot, 'src/session.ts'), `${FILES['src/session.ts']}\nexport async function find(db: { query(s: string): Promise<unknown> }, name: string) {\n  return db.query("SELECT * FROM sessions WHERE user = '" + name + "'");\n}\n`);
    const r = await runCliAsync(['prs', 'post', '101', '--repo', ghRoot, '--base', 'HEAD', '--dry-run', '--json'], { env: ghEnv() });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.dry_run).toBe(true);
    expect(out.verdict).toBe('BLOCK');
    expect(out.requests[0].body.event).toBe('REQUEST_CHANGES');
    expect(out.requests[0].body.comments[0]).toMatchObject({ path: 'src/session.ts', line: 8, side: 'RIGHT' });
    expect(github.seen).toEqual([]);
  });

  it('a missing token says which variable to set and the offline alternative', async () => {
    const r = await runCliAsync(['prs', 'list', '--repo', ghRoot], { env: { ...ghEnv(''), GH_TOKEN: '' } });
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toBe(
      "unavailable: list_prs needs the GitHub API for acme/shop and no token is set: set GH_TOKEN or GITHUB_TOKEN in the server's environment, or pass prs (the already-fetched pull requests) to work without the network",
    );
    expect(github.seen).toEqual([]);
  });

  it('a refused token (401) says to set a valid one', async () => {
    const r = await runCliAsync(['prs', 'triage', '--repo', ghRoot], { env: ghEnv('bad-token') });
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toBe(
      "unavailable: GitHub GET /repos/acme/shop/pulls?state=open&per_page=100 answered 401 Unauthorized (Bad credentials); the token was refused: set a valid GH_TOKEN or GITHUB_TOKEN in the server's environment",
    );
  });

  it('GitLab (ssh origin): merge requests listed with approvals and pipelines', async () => {
    const r = await runCliAsync(['prs', 'list', '--repo', glRoot, '--json'], { env: glEnv() });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.source).toBe('gitlab');
    expect(out.prs.map((p: any) => [p.number, p.state, p.ci.rollup])).toEqual([
      [6, 'DRAFT', 'FAILURE'],
      [5, 'APPROVED', 'SUCCESS'],
    ]);
    expect(gitlab.seen.every((s) => s.auth === 'glpat-testtoken0000000000000')).toBe(true);
    expect(gitlab.seen[0]!.path).toBe('/projects/acme%2Fshop');
  });

  it('GitLab: one discussion per anchored finding at the MR\'s diff_refs, then a summary note', async () => {
    const findings = path.join(glRoot, '..', 'findings.json');
    fs.writeFileSync(findings, JSON.stringify([{ rule: 'secret', severity: 'error', path: 'src/pricing.ts', line: 7, message: 'api_key = "sk_live_abcdefghijklmnop"' }]));
    const r = await runCliAsync(['prs', 'post', '5', '--repo', glRoot, '--findings', findings, '--json'], { env: glEnv() });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ posted: true, forge: 'gitlab', verdict: 'BLOCK', discussions: 1, note_id: 1127, anchored: 1, redacted: 1 });
    const posts = gitlab.seen.filter((s) => s.method === 'POST');
    expect(posts.map((s) => s.path)).toEqual(['/projects/acme%2Fshop/merge_requests/5/discussions', '/projects/acme%2Fshop/merge_requests/5/notes']);
    expect(posts[0]!.body).toEqual({
      body: '**ERROR** `secret`: api_key = "[REDACTED]"',
      position: {
        position_type: 'text',
        base_sha: 'b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5',
        start_sha: 'c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5',
        head_sha: '5555555555555555555555555555555555555555',
        new_path: 'src/pricing.ts',
        new_line: 7,
      },
    });
    expect(posts[1]!.body).toEqual({ body: '**gortex review: BLOCK** — 1 finding (1 error).' });
  });
});
