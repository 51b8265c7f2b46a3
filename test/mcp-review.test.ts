/**
 * The review gate through the real doors: `gortex mcp` over stdio (the `review` and
 * `suppress_finding` tools, `analyze kind=review`, the compact `review.run` and
 * `remember.suppress_finding`) and the `gortex review` verb (text, JSON, SARIF, exit codes by
 * verdict), on a git repository whose working tree adds defects to a committed base that already
 * had one (pre-existing, not counted).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { runCli, unwrapCliError } from './helpers/cli';
import { gitRepo, tempHome } from './helpers/repo';

const BASE_STORE = `export interface Db { query(sql: string, params?: unknown[]): Promise<unknown[]> }

export async function byId(db: Db, id: string) {
  return db.query("SELECT * FROM users WHERE id = " + id);
}
`;

const CHANGED_STORE = `export interface Db { query(sql: string, params?: unknown[]): Promise<unknown[]> }

export async function byId(db: Db, id: string) {
  if (!id) throw new Error("id is required");
  return db.query("SELECT * FROM users WHERE id = " + id);
}

export async function byName(db: Db, name: string) {
  return db.query(\`SELECT * FROM users WHERE name = '\${name}'\`);
}

export async function all(db: Db, ids: string[]) {
  const out = [];
  for (const id of ids) out.push(await db.query("SELECT * FROM users WHERE id = $1", [id]));
  return out;
}
`;

const UTIL = `export function same(a: { id: number }, b: { id: number }): boolean {
  return a.id === b.id;
}
`;

const git = (root: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });

function repo(): string {
  const root = gitRepo('shop', { 'src/store.ts': BASE_STORE, 'src/util.ts': UTIL });
  fs.writeFileSync(path.join(root, 'src/store.ts'), CHANGED_STORE);
  return root;
}

describe('review gate over MCP', () => {
  const root = repo();
  let client: Client;
  let compact: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
    compact = await startStdio(root, 'compact');
  });
  afterAll(async () => {
    await client?.close();
    await compact?.close();
  });

  it('reviews the working tree against HEAD: new defects count, the base one is pre-existing', async () => {
    const r = await okJson(client, 'review', {});
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings.map((f: any) => `${f.path}:${f.line} ${f.rule}`)).toEqual(['src/store.ts:9 sql-string-concat', 'src/store.ts:14 loop-query']);
    expect(r.pre_existing_count).toBe(1);
    expect(r.pre_existing[0]).toMatchObject({ path: 'src/store.ts', line: 5, rule: 'sql-string-concat' });
    const sql = r.findings[0];
    expect(sql.severity).toBe('critical');
    expect(sql.message).toContain('`name`');
    expect(sql.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(sql.symbol).toMatch(/src\/store\.ts::byName$/);
    expect(r.findings[1].grounding).toContain('Db.query');
  });

  it('takes a pasted diff that is applied to the working tree, and refuses one that is not', async () => {
    const diff = git(root, 'diff', '--no-color');
    const r = await okJson(client, 'review', { diff });
    expect(r.findings.map((f: any) => f.line)).toEqual([9, 14]);
    expect(r.reviewed).toContain('pasted diff');
    const stale = diff.replace('WHERE name =', 'WHERE nick =');
    const refused = await callJson(client, 'review', { diff: stale });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('apply the diff first');
    const garbage = await callJson(client, 'review', { diff: 'hello' });
    expect(garbage.text).toContain('no file headers');
    const both = await callJson(client, 'review', { diff, base: 'HEAD' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('not both');
    const outside = await callJson(client, 'review', { diff: diff.replaceAll('src/store.ts', '../escape.ts') });
    expect(outside.text).toContain('without ..');
  });

  it('reviews whole files under a scope, and names a bad base', async () => {
    const r = await okJson(client, 'review', { scope: 'src/' });
    expect(r.findings).toHaveLength(3);
    expect(r.reviewed).toContain('src/');
    const bad = await callJson(client, 'review', { base: 'no-such-branch' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('no-such-branch');
  });

  it('suppresses a finding durably: review and analyze leave it out, across a line shift, until removed', async () => {
    const r = await okJson(client, 'review', {});
    const loop = r.findings.find((f: any) => f.rule === 'loop-query');
    const missing = await callJson(client, 'suppress_finding', { fingerprint: loop.fingerprint });
    expect(missing.text).toContain('needs reason');
    const added = await okJson(client, 'suppress_finding', { fingerprint: loop.fingerprint, reason: 'ids is at most 3 long' });
    expect(added.suppression).toMatchObject({ rule: 'loop-query', path: 'src/store.ts', reason: 'ids is at most 3 long' });
    const after = await okJson(client, 'review', {});
    expect(after.findings.map((f: any) => f.rule)).toEqual(['sql-string-concat']);
    expect(after.suppressed_count).toBe(1);
    const analyzed = await okJson(client, 'analyze', { kind: 'review' });
    expect(analyzed.findings.some((f: any) => f.rule === 'loop-query')).toBe(false);

    // Two lines added above: the finding moves, the suppression holds.
    fs.writeFileSync(path.join(root, 'src/store.ts'), `// header\n// more\n${CHANGED_STORE}`);
    const moved = await okJson(client, 'review', {});
    expect(moved.findings.map((f: any) => `${f.line} ${f.rule}`)).toEqual(['11 sql-string-concat']);

    const listed = await okJson(client, 'suppress_finding', { action: 'list' });
    expect(listed.total).toBe(1);
    await okJson(client, 'suppress_finding', { action: 'remove', fingerprint: loop.fingerprint });
    const back = await okJson(client, 'review', {});
    expect(back.findings.map((f: any) => f.rule)).toEqual(['sql-string-concat', 'loop-query']);
    const gone = await callJson(client, 'suppress_finding', { action: 'remove', fingerprint: loop.fingerprint });
    expect(gone.text).toContain('no suppression');
    fs.writeFileSync(path.join(root, 'src/store.ts'), CHANGED_STORE);
  });

  it('answers through the compact surface', async () => {
    const r = await okJson(compact, 'review', { operation: 'run', arguments: {} });
    expect(r.verdict).toBe('BLOCK');
    const kinds = await okJson(compact, 'analyze', { operation: 'review', arguments: { rules: ['performance'] } });
    expect(kinds.findings.map((f: any) => f.rule)).toEqual(['loop-query']);
  });
});

describe('gortex review', () => {
  const root = repo();
  const env = { GORTEX_HOME: tempHome() };

  it('prints the verdict and exits 3 on BLOCK', () => {
    const out = runCli(['review', '--repo', root, '--embedded'], { env });
    expect(out.status).toBe(3);
    expect(out.stdout).toMatch(/^BLOCK — 2 findings \(1 critical, 1 warning\)/);
    expect(out.stdout).toContain('src/store.ts:9:10  critical  sql-string-concat');
    expect(out.stdout).toContain('1 pre-existing (not counted)');
  });

  it('writes SARIF 2.1.0 with rules, levels, regions and fingerprints', () => {
    const out = runCli(['review', '--repo', root, '--embedded', '--format', 'sarif', '--fail-on', 'never'], { env });
    expect(out.status).toBe(0);
    const sarif = JSON.parse(out.stdout);
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe('gortex');
    const ids = run.tool.driver.rules.map((r: any) => r.id);
    expect(ids).toContain('sql-string-concat');
    const [first, second] = run.results;
    expect(first).toMatchObject({ ruleId: 'sql-string-concat', level: 'error' });
    expect(run.tool.driver.rules[first.ruleIndex].id).toBe('sql-string-concat');
    expect(first.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'src/store.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 9, startColumn: 10, endLine: 9 } });
    expect(second).toMatchObject({ ruleId: 'loop-query', level: 'warning' });
    expect(first.partialFingerprints['gortexFingerprint/v1']).toMatch(/^[0-9a-f]{16}$/);
  });

  it('fails on REVIEW with --fail-on review (exit 4), passes a clean change, and refuses bad flags', () => {
    const review = runCli(['review', '--repo', root, '--embedded', '--rules', 'performance', '--fail-on', 'review', '--json'], { env });
    expect(review.status).toBe(4);
    expect(JSON.parse(review.stdout).verdict).toBe('REVIEW');
    const clean = runCli(['review', '--repo', root, '--embedded', '--scope', 'src/util.ts'], { env });
    expect(clean.status).toBe(0);
    expect(clean.stdout).toMatch(/^APPROVE — no findings/);
    const badRule = runCli(['review', '--repo', root, '--embedded', '--rules', 'nonsense'], { env });
    expect(badRule.status).toBe(2);
    expect(unwrapCliError(badRule.stderr)).toContain('`nonsense` is neither a rule id, a category nor `all`');
    const badDiff = runCli(['review', '--repo', root, '--embedded', '--diff', path.join(root, 'nope.diff')], { env });
    expect(badDiff.status).toBe(2);
    expect(unwrapCliError(badDiff.stderr)).toContain('--diff');
  });
});

describe('review questions and critique over MCP', () => {
  const callers = Array.from({ length: 11 }, (_, i) => `export function use${i}(a: { id: number }) {\n  return same(a, a);\n}\n`).join('\n');
  const root = gitRepo('questions', {
    'src/util.ts': UTIL,
    'src/callers.ts': `import { same } from './util';\n\n${callers}`,
    'lib/far.ts': `import { same } from '../src/util';\n\nexport function far(a: { id: number }) {\n  return same(a, a);\n}\n`,
  });
  fs.writeFileSync(path.join(root, 'src/util.ts'), UTIL.replace('return a.id === b.id;', 'return a.id === b.id && a !== undefined;'));
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('asks symbol-anchored questions for the changed hub: untested, many callers, called from far away', async () => {
    const r = await okJson(client, 'suggested_review_questions', {});
    const kinds = r.questions.map((q: any) => `${q.kind}:${q.severity}`);
    expect(kinds).toEqual(expect.arrayContaining(['untested_hotspot:HIGH', 'hub_risk:MEDIUM', 'surprising:MEDIUM']));
    for (const q of r.questions) {
      expect(q.symbol).toMatch(/src\/util\.ts::same$/);
      expect(q).toMatchObject({ path: 'src/util.ts', line: 1 });
    }
    expect(r.questions[0].severity).toBe('HIGH');
    expect(r.questions.find((q: any) => q.kind === 'hub_risk').evidence).toBe('12 callers');
    expect(r.questions.find((q: any) => q.kind === 'surprising').question).toContain('lib/far.ts');
    const byIds = await okJson(client, 'suggested_review_questions', { ids: ['far'] });
    expect(byIds.questions).toEqual([]);
  });

  it('critique_review keeps every finding without a model and says so', async () => {
    const findings = [{ rule: 'loop-query', severity: 'warning', path: 'a.ts', line: 1 }];
    const r = await okJson(client, 'critique_review', { findings });
    expect(r).toMatchObject({ kept: findings, dropped: [], verdict: 'REVIEW', critic: 'none' });
    expect(r.note).toContain('no language model');
  });
});
