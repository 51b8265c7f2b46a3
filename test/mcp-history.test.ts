/**
 * The git-history tools through the real doors: `gortex mcp` over stdio (full and compact
 * surfaces) and the `gortex analyze` verb, on a repository built commit by commit with the git CLI
 * (two authors, a pair of functions always changed together, a fix, a rename, a tag, CODEOWNERS),
 * plus a folder outside git.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startStdio } from './helpers/mcp';
import { runCli } from './helpers/cli';
import { gitHistory, tempHome } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

const cart = (add: string, total: string): string =>
  `export function addItem(items: string[], item: string): string[] {\n  ${add}\n  return items;\n}\n\nexport function total(prices: number[]): number {\n  ${total}\n}\n`;
const receipt = (line: string): string => `export function receiptLine(item: string): string {\n  ${line}\n}\n\nexport function footer(): string {\n  return 'thanks';\n}\n`;

function shop(): string {
  return gitHistory('shop', [
    {
      author: 'Alice',
      date: '2020-01-01T00:00:00Z',
      message: 'initial shop',
      files: { 'src/cart.ts': cart('items.push(item);', 'return prices.length;'), 'src/receipt.ts': receipt("return item;"), CODEOWNERS: '*.ts @web\n/src/cart.ts @checkout\n' },
    },
    {
      author: 'Bob',
      date: '2021-01-01T00:00:00Z',
      message: 'items are trimmed on receipts',
      files: { 'src/cart.ts': cart('items.push(item.trim());', 'return prices.length;'), 'src/receipt.ts': receipt('return item.trim();') },
    },
    {
      author: 'Bob',
      date: '2021-06-01T00:00:00Z',
      message: 'Fix empty item bug',
      files: { 'src/cart.ts': cart('if (item) items.push(item.trim());', 'return prices.length;'), 'src/receipt.ts': receipt("return item ? item.trim() : '';") },
      tag: 'v1.0.0',
    },
    {
      author: 'Alice',
      date: '2023-01-01T00:00:00Z',
      message: 'total sums prices',
      files: { 'src/cart.ts': cart('if (item) items.push(item.trim());', 'return prices.reduce((a, b) => a + b, 0);') },
    },
  ]);
}

describe('git history tools', () => {
  const root = shop();
  let client: Client;
  let compact: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
    compact = await startStdio(root, 'compact');
  });
  afterAll(async () => {
    await client.close();
    await compact.close();
  });
  const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<TextResult> =>
    (await c.callTool({ name, arguments: { ...args, format: 'json' } })) as TextResult;
  const ok = async (name: string, args: Record<string, unknown>, c: Client = client): Promise<any> => {
    const r = await call(c, name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
    return JSON.parse(r.content[0]!.text);
  };

  test('find_co_changing_symbols ranks the function changed in the same commits', async () => {
    const r = await ok('find_co_changing_symbols', { symbol: 'addItem' });
    expect(r.target.qual_name).toBe('addItem');
    expect(r.commits).toBe(3);
    expect(r.neighbours.map((n: any) => [n.qual_name, n.shared, n.score, n.cross_file])).toEqual([['receiptLine', 3, 1, true]]);
    expect(r.history).toMatchObject({ commits: 4, since: '2020-01-01', update: 'full' });
    const file = await ok('find_co_changing_symbols', { symbol: 'src/receipt.ts' });
    expect(file.neighbours.map((n: any) => n.path)).toEqual(['src/cart.ts']);
  });

  test('analyze kinds blame, ownership, stale_code, churn, fixes_history and releases', async () => {
    const blame = await ok('analyze', { kind: 'blame', symbol: 'total' });
    expect(blame.symbols[0]).toMatchObject({ qual_name: 'total', commits: 2, last_change: { author: 'Alice', date: '2023-01-01', summary: 'total sums prices' } });
    const own = await ok('analyze', { kind: 'ownership', by: 'file' });
    const byPath = Object.fromEntries(own.rows.map((r: any) => [r.path, r]));
    expect(byPath['src/cart.ts'].codeowners).toEqual(['@checkout']);
    expect(byPath['src/receipt.ts'].codeowners).toEqual(['@web']);
    const stale = await ok('analyze', { kind: 'stale_code', days: 365 });
    expect(stale.symbols.map((s: any) => s.name).sort()).toEqual(['addItem', 'footer', 'receiptLine']);
    const churn = await ok('analyze', { kind: 'churn', days: 365 });
    expect(churn.rows.map((r: any) => r.name)).toEqual(['total']);
    const fixes = await ok('analyze', { kind: 'fixes_history' });
    expect(fixes.fix_commits).toBe(1);
    expect(fixes.symbols.map((s: any) => s.name).sort()).toEqual(['addItem', 'receiptLine']);
    const releases = await ok('analyze', { kind: 'releases', symbol: 'total' });
    expect(releases.releases.map((x: any) => [x.tag, x.commits])).toEqual([['v1.0.0', 3]]);
    expect(releases.symbol).toMatchObject({ introduced_in: 'v1.0.0', last_changed_in: 'v1.0.0', unreleased_commits: 1 });
  });

  test('the compact surface reaches the history kinds through analyze', async () => {
    const r = await ok('analyze', { operation: 'churn', arguments: { by: 'file' } }, compact);
    expect(r.rows.map((x: any) => x.path)).toEqual(['src/cart.ts', 'src/receipt.ts', 'CODEOWNERS']);
    const co = await ok('analyze', { operation: 'co_change', arguments: { symbol: 'receiptLine' } }, compact);
    expect(co.neighbours.map((n: any) => n.qual_name)).toEqual(['addItem']);
  });

  test('bad input is named', async () => {
    const r = await call(client, 'analyze', { kind: 'stale_code', days: 0 });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/days/);
    const missing = await call(client, 'find_co_changing_symbols', { symbol: 'noSuchSymbol' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/not_found/);
  });

  test('gortex analyze renders the history kinds as text', () => {
    const out = runCli(['analyze', '--embedded', '--kind', 'ownership', '--repo', root], { env: { GORTEX_HOME: tempHome() } });
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^src\s+2\s+/m);
    expect(out.stdout).toContain('CODEOWNERS: CODEOWNERS');
    expect(out.stdout).toMatch(/history: 4 mainline commits since 2020-01-01 up to [0-9a-f]{12} \(full\)/);
  });

  test('a folder outside git is refused with the fix', () => {
    const plain = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'gortex-plain-'));
    fs.writeFileSync(path.join(plain, 'a.ts'), 'export const a = 1;\n');
    const out = runCli(['analyze', '--embedded', '--kind', 'blame', '--repo', plain], { env: { GORTEX_HOME: tempHome() } });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('not inside a git worktree');
  });

  test('suggest_reviewers and pr_risk read the changeset from git (base); reviewers rank owners, authors and co-change experts', async () => {
    fs.writeFileSync(path.join(root, 'src/cart.ts'), cart('if (item) items.push(item.trim().toLowerCase());', 'return prices.reduce((a, b) => a + b, 0);'));
    try {
      const r = await ok('suggest_reviewers', { base: 'HEAD' });
      expect(r).toMatchObject({ files: 1, symbols: 1 });
      expect(r.reviewers[0]).toMatchObject({ reviewer: '@checkout', kind: 'codeowner', owned_files: 1 });
      const bob = r.reviewers.find((x: any) => x.reviewer === 'Bob');
      expect(bob.reasons.join(' ')).toMatch(/changes together/);
      const compactR = await ok('pr', { operation: 'reviewers', arguments: { paths: ['src/receipt.ts'], exclude: ['@web'] } }, compact);
      expect(compactR.reviewers.map((x: any) => x.reviewer)).not.toContain('@web');
      const risk = await ok('pr_risk', { base: 'HEAD' });
      expect(risk.symbols).toBe(1);
      expect(risk.review_priorities.map((p: any) => p.name)).toEqual(['addItem']);
      expect(risk.axes.map((a: any) => a.name)).toEqual(['blast_radius', 'fan_in', 'coverage_gap', 'security', 'community_span']);
      expect(risk.axes.find((a: any) => a.name === 'coverage_gap').score).toBe(100);
      const compactRisk = await ok('pr', { operation: 'risk', arguments: { ids: ['total'] } }, compact);
      expect(compactRisk.symbols).toBe(1);
      const nothing = await call(client, 'suggest_reviewers', {});
      expect(nothing.isError).toBe(true);
      expect(nothing.content[0]!.text).toMatch(/needs the changeset/);
    } finally {
      fs.writeFileSync(path.join(root, 'src/cart.ts'), cart('if (item) items.push(item.trim());', 'return prices.reduce((a, b) => a + b, 0);'));
    }
  });

  test('sibling_diff_context ranks the other changed files by co-change and proximity, with their raw diffs', async () => {
    fs.writeFileSync(path.join(root, 'src/cart.ts'), cart('if (item) items.push(item.trim());', 'return prices.reduce((a, b) => a + b, 1);'));
    fs.writeFileSync(path.join(root, 'src/receipt.ts'), receipt("return item ? item.trim() : '-';"));
    fs.mkdirSync(path.join(root, 'src/extra'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/extra/new.ts'), 'export const added = 1;\n');
    try {
      const r = await ok('sibling_diff_context', { focus: 'total' });
      expect(r.focus).toBe('src/cart.ts');
      expect(r.siblings.map((x: any) => x.path)).toEqual(['src/receipt.ts', 'src/extra/new.ts']);
      expect(r.siblings[0].reasons.join(' ')).toMatch(/changes together/);
      expect(r.siblings[0].diff).toContain("+  return item ? item.trim() : '-';");
      expect(r.siblings[1].diff).toContain('+export const added = 1;');
      const cut = await ok('sibling_diff_context', { focus: 'src/cart.ts', max_files: 1, max_bytes_per_file: 256 });
      expect(cut).toMatchObject({ total: 2, truncated: true });
      const compactR = await ok('review', { operation: 'sibling_context', arguments: { focus: 'src/receipt.ts' } }, compact);
      expect(compactR.siblings[0].path).toBe('src/cart.ts');
      const wrong = await call(client, 'sibling_diff_context', { focus: 'src/nowhere.ts' });
      expect(wrong.isError).toBe(true);
      expect(wrong.content[0]!.text).toMatch(/not_found: focus "src\/nowhere.ts" is neither a changed file nor a changed symbol.*src\/cart.ts/);
    } finally {
      fs.writeFileSync(path.join(root, 'src/cart.ts'), cart('if (item) items.push(item.trim());', 'return prices.reduce((a, b) => a + b, 0);'));
      fs.writeFileSync(path.join(root, 'src/receipt.ts'), receipt("return item ? item.trim() : '';"));
      fs.rmSync(path.join(root, 'src/extra'), { recursive: true, force: true });
    }
  });
});

describe('search_symbols at another git revision (ref)', () => {
  // The rename lands in the second commit; the worktree then renames again without committing.
  const root = gitHistory('revs', [
    { author: 'Alice', date: '2022-01-01T00:00:00Z', message: 'first', files: { 'src/pay.ts': 'export function chargeCard(amount: number): number {\n  return amount;\n}\n' }, tag: 'v1' },
    { author: 'Bob', date: '2023-01-01T00:00:00Z', message: 'rename', files: { 'src/pay.ts': 'export function chargeAccount(amount: number): number {\n  return amount;\n}\n' } },
  ]);
  fs.writeFileSync(path.join(root, 'src/pay.ts'), 'export function chargeWallet(amount: number): number {\n  return amount;\n}\n');
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client.close();
  });
  const search = async (args: Record<string, unknown>): Promise<any> => {
    const r = (await client.callTool({ name: 'search_symbols', arguments: { ...args, format: 'json' } })) as TextResult;
    if (r.isError) throw new Error(r.content[0]!.text);
    return JSON.parse(r.content[0]!.text);
  };
  const names = (r: any): string[] => r.results.map((x: any) => x.name);

  test('a tag, HEAD and the live index each answer with their own symbols', async () => {
    expect(names(await search({ query: 'charge' }))).toEqual(['chargeWallet']);
    const old = await search({ query: 'charge', ref: 'v1' });
    expect(names(old)).toEqual(['chargeCard']);
    expect(old.ref).toBe('v1');
    expect(old.commit).toMatch(/^[0-9a-f]{40}$/);
    // Ids read like the live ones: the repository's name, the path, the symbol.
    expect(old.results[0].id).toBe('revs/src/pay.ts::chargeCard');
    expect(names(await search({ query: 'charge', ref: 'HEAD' }))).toEqual(['chargeAccount']);
    // The repository itself is untouched: no worktree, no new refs.
    const worktrees = require('node:child_process').execFileSync('git', ['worktree', 'list'], { cwd: root, encoding: 'utf8' });
    expect(worktrees.trim().split('\n')).toHaveLength(1);
  });

  test('a ref git cannot resolve is refused with what to pass', async () => {
    const r = (await client.callTool({ name: 'search_symbols', arguments: { query: 'charge', ref: 'no-such-branch' } })) as TextResult;
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('is not a commit of this repository');
    const flag = (await client.callTool({ name: 'search_symbols', arguments: { query: 'charge', ref: '--all' } })) as TextResult;
    expect(flag.isError).toBe(true);
    expect(flag.content[0]!.text).toContain('ref must name a commit');
  });
});
