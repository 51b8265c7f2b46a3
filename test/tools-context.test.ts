/**
 * The agent-facing context tools (`ts/tools/context.ts`) through the registry's own door
 * (`callTool` with the context family: validation, dispatch, error codes) on a real `Engine` that
 * indexed temp copies of the `query/app-ts` and `query/search-app` fixtures.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { contextTools } from '../ts/tools/context';
import { extractCues, searchTokens, stem, type ExploreResult } from '../ts/tools/context-explore';
import type { ToolDef } from '../ts/tools/registry';
import type { ToolContext } from '../ts/workspace/context';
import { fixtureCopy, gitRepo } from './helpers/repo';
import { openToolContext as open, toolCaller } from './helpers/tools';

const { call, refusal } = toolCaller(contextTools as readonly ToolDef[]);

/** Rank (1-based) of `id` among explore rows, 0 when absent. */
const rankOf = (r: ExploreResult, id: string): number => r.results.findIndex((row) => row.id === id) + 1;

describe('context tools', () => {
  let app: ToolContext;
  let search: ToolContext;

  beforeAll(async () => {
    app = await open(fixtureCopy('query/app-ts', 'ctx-app'));
    search = await open(fixtureCopy('query/search-app', 'ctx-search'));
  });

  test('the family: names, effects and one-line descriptions', () => {
    expect(contextTools.map((t) => t.name)).toEqual([
      'index_health',
      'get_repo_outline',
      'explore',
      'batch_symbols',
      'get_editing_context',
      'get_test_targets',
    ]);
    for (const t of contextTools) {
      expect(t.effect).toBe('read');
      expect(t.description.length).toBeGreaterThan(40);
    }
  });

  describe('index_health', () => {
    test('a fresh index: counts by language, tiers, resolution share and the verdict', async () => {
      const h = await call(app, 'index_health', {});
      expect(h.repo).toBe('ctx-app');
      expect(h.status).toBe('healthy');
      // package.json is indexed as a document: a file, no symbols.
      expect(h.verdict).toBe('healthy: 9 files indexed (json 1, typescript 8); snapshot fresh; no parse failures; 95% of references resolved');
      expect(h.files).toEqual({
        indexed: 9,
        by_language: { json: { files: 1, bytes: 58, symbols: 0 }, typescript: { files: 8, bytes: 2431, symbols: 42 } },
      });
      expect(h.skipped).toEqual({ total: 0, by_reason: {}, files: [] });
      expect(h.failures).toEqual({ total: 0, files: [] });
      expect(h.freshness).toMatchObject({ fresh: true, modified: 0, added: 0, deleted: 0, changed: [] });
      expect(typeof h.freshness.indexed_at).toBe('string');
      expect(h.references).toEqual({ usage_edges: 52, unresolved: 3, unresolved_share: 0.0545 });
      expect(h.tiers).toEqual({ ast_resolved: { edges: 128, share: 0.9771 }, text_matched: { edges: 3, share: 0.0229 } });
      expect(h.health_score).toBe(100);
      expect(h.score_deductions).toEqual([]);
      expect(h.path_liveness).toEqual({ indexed_files: 9, checked: 9, orphan_files: 0, orphan_rate: 0, orphans_by_repo: {}, orphans: [], truncated: false });
      expect([h.tracked_repo_paths_ok, h.missing_repo_paths]).toEqual([true, []]);
    });

    test('three languages in the search app', async () => {
      const h = await call(search, 'index_health', {});
      expect(h.files.indexed).toBe(13);
      expect(Object.fromEntries(Object.entries(h.files.by_language as Record<string, { files: number; symbols: number }>).map(([k, v]) => [k, [v.files, v.symbols]]))).toEqual({
        go: [3, 12],
        python: [4, 12],
        text: [1, 0],
        typescript: [5, 28],
      });
      expect(h.verdict).toBe('healthy: 13 files indexed (go 3, python 4, text 1, typescript 5); snapshot fresh; no parse failures; 78% of references resolved');
    });

    test('files changed on disk since the snapshot make it degraded and are listed', async () => {
      const root = fixtureCopy('query/app-ts', 'ctx-stale');
      const ctx = await open(root);
      fs.appendFileSync(path.join(root, 'src/format.ts'), '\nexport const EXTRA = 1;\n');
      fs.writeFileSync(path.join(root, 'src/added.ts'), 'export const added = 2;\n');
      fs.rmSync(path.join(root, 'src/empty.ts'));
      const h = await call(ctx, 'index_health', { max_items: 2 });
      expect(h.status).toBe('degraded');
      expect(h.verdict).toBe('degraded: 9 files indexed (json 1, typescript 8); 3 files changed since the snapshot; 95% of references resolved');
      expect(h.freshness).toMatchObject({ fresh: false, modified: 1, added: 1, deleted: 1, changed: ['M src/format.ts', 'A src/added.ts'] });
      // The graph still claims the deleted file: an orphan, which caps the score.
      expect(h.path_liveness).toMatchObject({ indexed_files: 9, checked: 9, orphan_files: 1, orphan_rate: 0.1111, orphans_by_repo: { 'ctx-stale': 1 }, orphans: ['src/empty.ts'] });
      expect(h.score_deductions).toEqual([
        { reason: '3 files changed since the snapshot', points: 4 },
        { reason: '1 indexed files no longer on disk (capped at 60)', points: 36 },
      ]);
      expect(h.health_score).toBe(60);
    });

    test('an index whose files were deleted behind its back: orphans found by stat, not by the watcher', async () => {
      const root = fixtureCopy('query/app-ts', 'ctx-orphans');
      const ctx = await open(root);
      fs.rmSync(path.join(root, 'src'), { recursive: true });
      const h = await call(ctx, 'index_health', { max_items: 3 });
      expect(h.path_liveness).toMatchObject({ indexed_files: 9, checked: 9, orphan_files: 8, orphan_rate: 0.8889, orphans_by_repo: { 'ctx-orphans': 8 }, truncated: false });
      expect(h.path_liveness.orphans).toHaveLength(3);
      expect(h.health_score).toBeLessThanOrEqual(60);
      expect(h.status).toBe('degraded');
    });

    test('max_items out of range is refused', async () => {
      expect(await refusal(app, 'index_health', { max_items: 0 })).toEqual({
        code: 'invalid_argument',
        message: 'index_health: max_items: Too small: expected number to be >=1',
      });
    });
  });

  describe('get_repo_outline', () => {
    test('app-ts: languages, directories, imports, entry points, hubs, test share', async () => {
      const o = await call(app, 'get_repo_outline', { max_items: 3 });
      expect(o.repo).toBe('ctx-app');
      expect(o.files).toBe(9);
      expect(o.symbols).toBe(42);
      expect(o.languages).toEqual([
        { language: 'typescript', files: 8, symbols: 42 },
        { language: 'json', files: 1, symbols: 0 },
      ]);
      // src/ holds everything but has no subdirectory to split into.
      expect(o.directories).toEqual([
        { path: 'src/', files: 8, symbols: 42 },
        { path: './*', files: 1, symbols: 0 },
      ]);
      expect(o.most_imported).toEqual([
        { path: 'src/format.ts', kind: 'file', importers: 2 },
        { path: 'src/shapes.ts', kind: 'file', importers: 2 },
        { path: 'src/config.ts', kind: 'file', importers: 1 },
      ]);
      expect(o.entry_points).toEqual([
        { path: 'src/cli.ts', reason: 'cli file' },
        { path: 'src/render.ts', symbol: 'main', line: 24, reason: 'main function' },
      ]);
      expect(o.communities.total).toBeGreaterThanOrEqual(2);
      expect(o.communities.top).toHaveLength(3);
      expect(o.communities.top[0].label).toMatch(/^src · /);
      expect(o.hotspots).toHaveLength(3);
      expect(o.hotspots[0]).toMatchObject({ qualified: 'Renderer.draw', score: 100 });
      expect(o.hubs.map((h: { qualified: string; fan_in: number }) => [h.qualified, h.fan_in])).toEqual([
        ['Config', 5],
        ['Shape', 5],
        ['formatLabel', 3],
      ]);
      expect(o.tests).toEqual({ test_files: 1, file_share: 0.125, test_symbols: 2, symbol_share: 0.0476 });
    });

    test('search-app: a dominant ts/ is split; Go packages count as imported units', async () => {
      const o = await call(search, 'get_repo_outline', {});
      expect(o.files).toBe(13);
      expect(o.symbols).toBe(52);
      expect(o.languages).toEqual([
        { language: 'typescript', files: 5, symbols: 28 },
        { language: 'python', files: 4, symbols: 12 },
        { language: 'go', files: 3, symbols: 12 },
        { language: 'text', files: 1, symbols: 0 },
      ]);
      expect(o.directories).toEqual([
        { path: 'ts/src/', files: 4, symbols: 25 },
        { path: 'go/', files: 4, symbols: 12 },
        { path: 'py/', files: 4, symbols: 12 },
        { path: 'ts/test/', files: 1, symbols: 3 },
      ]);
      expect(o.most_imported).toEqual([
        { path: 'ts/src/util/strings.ts', kind: 'file', importers: 3 },
        { path: 'ts/src/users/userRepository.ts', kind: 'file', importers: 2 },
        { path: 'go/users', kind: 'package', importers: 1 },
        { path: 'py/app/__init__.py', kind: 'file', importers: 1 },
        { path: 'py/app/users.py', kind: 'file', importers: 1 },
        { path: 'ts/src/users/userService.ts', kind: 'file', importers: 1 },
      ]);
      expect(o.entry_points).toEqual([]);
      expect(o.tests).toEqual({ test_files: 3, file_share: 0.25, test_symbols: 4, symbol_share: 0.0769 });
    });

    test('more files than one graph page: listed from the disk, skipping what the index skipped', async () => {
      const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-test-')), 'ctx-big');
      for (let i = 0; i < 1003; i++) {
        const dir = path.join(root, 'src', `m${i % 3}`);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `f${i}.ts`), `export function f${i}(): number {\n  return ${i};\n}\n`);
      }
      fs.mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
      fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'index.ts'), 'export const dep = 1;\n');
      fs.writeFileSync(path.join(root, 'notes.txt'), 'a text file: indexed\n');
      fs.writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]));
      const ctx = await open(root);
      const o = await call(ctx, 'get_repo_outline', { max_items: 5 });
      expect(o.files).toBe(1004);
      expect(o.symbols).toBe(1003);
      expect(o.partial).toBeUndefined();
      expect(o.directories).toEqual([
        { path: 'src/m0/', files: 335, symbols: 335 },
        { path: 'src/m1/', files: 334, symbols: 334 },
        { path: 'src/m2/', files: 334, symbols: 334 },
        { path: './*', files: 1, symbols: 0 },
      ]);
    });

    test('max_items out of range is refused', async () => {
      expect((await refusal(app, 'get_repo_outline', { max_items: 101 })).code).toBe('invalid_argument');
    });
  });

  describe('explore', () => {
    test('a bug report naming a method: the gold method first, with why and source', async () => {
      const task =
        "Users can't sign in when their email has surrounding whitespace. The TypeScript UserService\n" +
        'returns undefined from getUserByEmail for " ann@example.com " even though the account exists.';
      const r = await call<ExploreResult>(search, 'explore', { task });
      const gold = 'ctx-search/ts/src/users/userService.ts::UserService.getUserByEmail';
      expect(rankOf(r, gold)).toBeGreaterThanOrEqual(1);
      expect(rankOf(r, gold)).toBeLessThanOrEqual(3);
      const row = r.results[rankOf(r, gold) - 1]!;
      expect(row).toMatchObject({ qualified: 'UserService.getUserByEmail', kind: 'method', path: 'ts/src/users/userService.ts', lines: '9-11' });
      expect(row.why).toContain('identifier getUserByEmail (exact)');
      expect(row.source).toBe('  getUserByEmail(email: string): User | undefined {\n    return this.repo.findByEmail(email);\n  }\n');
      expect(row.callees).toEqual(['UserRepository.findByEmail']);
      expect(r.files['ts/src/users/userService.ts']).toContain('UserService.getUserByEmail');
      expect(r.token_budget).toBe(1600);
      expect(r.tokens_used).toBeLessThanOrEqual(1600);
      expect(r.results.length).toBeLessThanOrEqual(16);
    });

    test('a bug report that names no symbol: the refund method of the TypeScript gateway is in the top 3', async () => {
      const task =
        'Refunds go through for an empty payment id. In the web client, refunding a dispute with a blank id ' +
        'returns true instead of being rejected, so money is sent back twice.';
      const r = await call<ExploreResult>(search, 'explore', { task, path: 'ts/' });
      const rank = rankOf(r, 'ctx-search/ts/src/payments/paymentGateway.ts::PaymentGateway.refundPayment');
      expect(rank).toBeGreaterThanOrEqual(1);
      expect(rank).toBeLessThanOrEqual(3);
      expect(r.results.every((row) => row.path.startsWith('ts/'))).toBe(true);
    });

    test('a JavaScript stack trace: the top frame ranks first', async () => {
      const task = [
        'Crash when rendering a shape without a name:',
        '',
        "TypeError: Cannot read properties of undefined (reading 'name')",
        '    at summarize (/home/dev/app/src/render.ts:16:17)',
        '    at Renderer.draw (/home/dev/app/src/render.ts:11:24)',
        '    at main (/home/dev/app/src/render.ts:26:5)',
      ].join('\n');
      const r = await call<ExploreResult>(app, 'explore', { task });
      expect(r.results.slice(0, 3).map((row) => row.qualified)).toEqual(['summarize', 'Renderer.draw', 'main']);
      expect(r.results[0]!.why).toContain('frame src/render.ts:16');
      expect(r.results[0]!.callers).toEqual(['render.summarizes', 'Renderer.draw']);
    });

    test('a Go panic: the frame line names the function through the file and line', async () => {
      const task = [
        'panic: runtime error: invalid memory address or nil pointer dereference',
        '',
        'goroutine 1 [running]:',
        'example.com/searchapp/payments.ChargeCard(0x0, {0x4b1e2a, 0x4}, 0x64)',
        '\t/build/go/payments/payments.go:17 +0x1c',
      ].join('\n');
      const r = await call<ExploreResult>(search, 'explore', { task });
      expect(r.results[0]).toMatchObject({ qualified: 'ChargeCard', path: 'go/payments/payments.go', lines: '16-19' });
      expect(r.results[0]!.why).toContain('frame go/payments/payments.go:17');
    });

    test('a small budget: bodies demote first, the cut is counted, the answer stays under it', async () => {
      const task = 'user email lookup normalizes whitespace before comparing accounts in the repository';
      const full = await call<ExploreResult>(search, 'explore', { task, token_budget: 24000, max_symbols: 30 });
      expect(full.truncated).toBe(false);
      expect(full.cut).toBeUndefined();
      expect(full.results.slice(0, 5).every((row) => row.source !== undefined)).toBe(true);
      expect(full.results.slice(5).every((row) => row.source === undefined)).toBe(true);
      const small = await call<ExploreResult>(search, 'explore', { task, token_budget: 1000, max_symbols: 30 });
      expect(small.truncated).toBe(true);
      expect(small.tokens_used).toBeLessThanOrEqual(1000);
      expect(small.cut!.bodies).toBeGreaterThan(0);
      // The next files shorten before rows go: every path cut is counted.
      expect(small.more_files?.length ?? 0).toBeLessThanOrEqual(5);
      expect((small.more_files?.length ?? 0) + small.cut!.more_files).toBe(full.more_files?.length ?? 0);
      expect(small.results.map((row) => row.id)).toEqual(full.results.slice(0, small.results.length).map((row) => row.id));
      const more = full.results.length + (full.completeness === 'complete' ? 0 : Number(/\d+/.exec(full.completeness)![0]));
      expect(small.completeness).toBe(`partial: ${more - small.results.length} more candidate${more - small.results.length === 1 ? '' : 's'}`);
    });

    test('bad input: blank task, budgets and row counts out of range', async () => {
      expect(await refusal(search, 'explore', { task: '   ' })).toEqual({
        code: 'invalid_argument',
        message: 'explore: task must not be blank; describe the task or paste the bug report',
      });
      expect((await refusal(search, 'explore', { task: '' })).code).toBe('invalid_argument');
      expect(await refusal(search, 'explore', { task: 'x', token_budget: 999 })).toEqual({
        code: 'invalid_argument',
        message: 'explore: token_budget: Too small: expected number to be >=1000',
      });
      expect((await refusal(search, 'explore', { task: 'x', token_budget: 24001 })).message).toBe('explore: token_budget: Too big: expected number to be <=24000');
      expect((await refusal(search, 'explore', { task: 'x', max_symbols: 31 })).code).toBe('invalid_argument');
      expect((await refusal(search, 'explore', { task: 'x', max_symbols: 0 })).code).toBe('invalid_argument');
    });

    test('a report that names no code finds the body that does what it describes', async () => {
      // Only the body of `parse_date` talks about leap years and February: names and docs do not.
      const root = gitRepo('ctx-bodies', {
        'cal/dates.py':
          'def parse_date(text):\n    year, month, day = (int(p) for p in text.split("-"))\n' +
          '    # february has 29 days in a leap year only\n    if month == 2 and day == 29 and year % 4 != 0:\n' +
          '        raise ValueError("day is out of range for month")\n    return (year, month, day)\n\n\n' +
          'def format_date(parts):\n    return "-".join(str(p) for p in parts)\n',
        'cal/clock.py': 'def now_utc():\n    return 0\n',
        'tests/test_dates.py': 'def test_leap_day():\n    assert parse_date("2024-02-29") == (2024, 2, 29)  # leap year february\n',
      });
      const ctx = await open(root);
      const r = await call<ExploreResult>(ctx, 'explore', { task: 'Entering the 29th of February in a leap year is refused although that day exists.' });
      expect(r.results[0]).toMatchObject({ qualified: 'parse_date', path: 'cal/dates.py' });
      expect(r.results[0]!.why.some((w) => w.startsWith('body'))).toBe(true);
      expect(r.queries.some((q) => q.startsWith('body → '))).toBe(true);
      expect(r.queries.some((q) => q.startsWith('file content → '))).toBe(true);
      // The test restates the report; it is not where the bug is.
      expect(r.results.findIndex((row) => row.path.startsWith('tests/'))).not.toBe(0);
    });

    test('more_files: a file with no symbol to rank, found by its content, follows the rows', async () => {
      // The locale tables define nothing: only the content ranking can name them.
      const root = gitRepo('ctx-more-files', {
        'cal/names.py': 'def month_name(locale, month):\n    return TABLES[locale][month - 1]\n',
        'cal/clock.py': 'def now_utc():\n    return 0\n',
        'locale/de.py': 'register("de", ["Januar", "Februar", "Maerz", "Aprill", "Mai", "Juni"])\n',
        'locale/fr.py': 'register("fr", ["janvier", "fevrier", "mars", "avril", "mai", "juin"])\n',
      });
      const ctx = await open(root);
      const r = await call<ExploreResult>(ctx, 'explore', { task: 'The German month name of April is spelled Aprill in month_name output; it should be April.' });
      expect(r.results[0]).toMatchObject({ qualified: 'month_name', path: 'cal/names.py' });
      expect(r.files['locale/de.py']).toBeUndefined();
      expect(r.more_files?.[0]).toBe('locale/de.py');
      expect(r.more_files).not.toContain('cal/names.py');
    });

    test('a link to a source line on a forge points at the symbol there', async () => {
      const task = 'The gateway accepts an empty id, see https://github.com/acme/shop/blob/0fdac93/ts/src/payments/paymentGateway.ts#L14 for the check.';
      const r = await call<ExploreResult>(search, 'explore', { task });
      expect(r.results[0]).toMatchObject({ qualified: 'PaymentGateway.refundPayment' });
      expect(r.results[0]!.why).toContain('frame ts/src/payments/paymentGateway.ts:14');
    });

    test('text that matches nothing: an empty, complete answer', async () => {
      const r = await call<ExploreResult>(search, 'explore', { task: 'zzqx qqzv' });
      expect(r.results).toEqual([]);
      expect(r.files).toEqual({});
      expect(r.completeness).toBe('complete');
      expect(r.truncated).toBe(false);
    });
  });

  describe('explore cue reading', () => {
    test('tokens and stems follow the engine’s splitting', () => {
      expect(searchTokens('parseHTTPResponse get_user_by_email utf8Decode')).toEqual(['parse', 'http', 'response', 'get', 'user', 'by', 'email', 'utf', '8', 'decode']);
      expect(['trimmed', 'emits', 'values', 'running', 'class', 'is'].map(stem)).toEqual(['trim', 'emit', 'valu', 'run', 'class', 'is']);
    });

    test('frames from Python, Java and JavaScript traces carry file, line, order and function', () => {
      const { cues } = extractCues(
        [
          'Traceback (most recent call last):',
          '  File "/srv/py/app/users.py", line 12, in find_by_email',
          'java.lang.NullPointerException',
          '\tat com.shop.UserStore.find(UserStore.java:40)',
          '    at Object.handler (src/server.ts:7:3)',
        ].join('\n'),
      );
      expect(cues.filter((c) => c.kind === 'path')).toEqual([
        { kind: 'path', text: '/srv/py/app/users.py', line: 12, frame: 0, name: 'find_by_email' },
        { kind: 'path', text: 'UserStore.java', line: 40, frame: 1, name: 'com.shop.UserStore.find' },
        { kind: 'path', text: 'src/server.ts', line: 7, frame: 2, name: 'handler' },
      ]);
    });

    test('a 20,000-character line of path characters is not searched for paths; short lines still are', () => {
      // PATH_RE backtracks over a run of path characters at every start (quadratic): such a line
      // is skipped, so a pasted blob cannot hold the process for seconds.
      const { cues } = extractCues(`${'a'.repeat(20_000)} src/inside_a_blob.ts\n  at run (src/server.ts:7:3)`);
      expect(cues.filter((c) => c.kind === 'path')).toEqual([{ kind: 'path', text: 'src/server.ts', line: 7, frame: 0, name: 'run' }]);
    });

    test('links to source files on a forge are path cues, with their line as a frame', () => {
      const { cues } = extractCues(
        'Thrown from https://github.com/axios/axios/blob/d032edd/lib/adapters/http.js#L236-L251 and ' +
          'https://gitlab.com/o/r/-/blob/main/src/app.py (see [gin.go](https://github.com/gin-gonic/gin/blob/master/gin.go#L73)); https://example.com/lib/x.js is a page.',
      );
      expect(cues.filter((c) => c.kind === 'path')).toEqual([
        { kind: 'path', text: 'lib/adapters/http.js', line: 236, frame: 0 },
        { kind: 'path', text: 'src/app.py' },
        { kind: 'path', text: 'gin.go', line: 73, frame: 1 },
      ]);
    });

    test('identifiers, calls, literals and error types are told apart; URLs and e-mails are ignored', () => {
      const { cues, words } = extractCues(
        'After upgrading, retry({ count: 2 }) in `OrderService` logs "payment declined" for user@example.com (see https://example.com/x).\n' +
          'ValueError: amount must be positive',
      );
      expect(cues).toEqual([
        { kind: 'identifier', text: 'OrderService' },
        { kind: 'literal', text: 'payment declined' },
        { kind: 'literal', text: 'amount must be positive' },
        { kind: 'identifier', text: 'ValueError', errorType: true },
        { kind: 'word', text: 'upgrading' },
        { kind: 'identifier', text: 'retry' },
        { kind: 'word', text: 'count' },
        { kind: 'word', text: 'logs' },
        { kind: 'word', text: 'payment' },
        { kind: 'word', text: 'declined' },
      ]);
      // Stems keep at least four letters (`logs` stays); the e-mail address contributes nothing.
      expect(words).toEqual(['upgrad', 'retry', 'count', 'order', 'service', 'logs', 'payment', 'declin', 'amount', 'must', 'positive']);
    });
  });

  describe('batch_symbols', () => {
    test('several ids: found rows with source, unknown and ambiguous ids fail only their row', async () => {
      const r = await call(app, 'batch_symbols', { ids: ['summarize', 'Renderer.draw', 'nope_nothing', 'flush'], include_source: true });
      expect(r.errors).toBe(2);
      expect(r.truncated).toBeUndefined();
      expect(r.symbols.map((row: { id: string }) => row.id)).toEqual(['summarize', 'Renderer.draw', 'nope_nothing', 'flush']);
      expect(r.symbols[0].node.id).toBe('ctx-app/src/render.ts::summarize');
      expect(r.symbols[0].source).toEqual({
        start_line: 15,
        end_line: 18,
        text: 'export function summarize(s: Shape): string {\n  console.log(s.name());\n  return s.name() + s.area();\n}\n',
      });
      expect(r.symbols[1].parent.qual_name).toBe('Renderer');
      expect(r.symbols[1].source.text).toBe('  draw(shape: Shape): string {\n    return formatLabel(summarize(shape));\n  }\n');
      expect(r.symbols[2].error.code).toBe('not_found');
      expect(r.symbols[3].error).toEqual({
        code: 'ambiguous',
        message:
          '"flush" matches 2 symbols; pass one of these ids: ctx-app/src/format.ts::Pipe.flush (method at src/format.ts:18), ctx-app/src/format.ts::Sink.flush (method at src/format.ts:14)',
      });
    });

    test('without include_source there is no source; max_bytes cuts at a line and then omits', async () => {
      const bare = await call(app, 'batch_symbols', { ids: ['loadConfig'] });
      expect(bare.symbols[0].source).toBeUndefined();
      expect(bare.symbols[0].node.signature).toBe('function loadConfig(): Config');
      const cut = await call(app, 'batch_symbols', { ids: ['summarize', 'loadConfig'], include_source: true, max_bytes: 60 });
      expect(cut.truncated).toBe(true);
      // 46 bytes of the first line fit in 60; the next line (25 bytes) does not; nothing is left for loadConfig.
      expect(cut.symbols[0].source).toEqual({ start_line: 15, end_line: 15, text: 'export function summarize(s: Shape): string {\n', truncated: true });
      expect(cut.symbols[1].source).toBeUndefined();
      expect(cut.symbols[1].source_omitted).toBe(true);
      expect(cut.symbols[1].node.id).toBe('ctx-app/src/config.ts::loadConfig');
    });

    test('empty, oversized and non-string id lists are refused', async () => {
      expect(await refusal(app, 'batch_symbols', { ids: [] })).toEqual({
        code: 'invalid_argument',
        message: 'batch_symbols: ids: Too small: expected array to have >=1 items',
      });
      expect((await refusal(app, 'batch_symbols', { ids: Array.from({ length: 51 }, (_, i) => `s${i}`) })).code).toBe('invalid_argument');
      expect((await refusal(app, 'batch_symbols', { ids: [3] })).code).toBe('invalid_argument');
    });
  });

  describe('get_editing_context', () => {
    test('the symbol, its source, callers and callees with tiers, tests and the file imports', async () => {
      const c = await call(app, 'get_editing_context', { id: 'summarize' });
      expect(c.symbol.id).toBe('ctx-app/src/render.ts::summarize');
      expect(c.source.text).toBe('export function summarize(s: Shape): string {\n  console.log(s.name());\n  return s.name() + s.area();\n}\n');
      expect(c.callers).toEqual([
        { id: 'ctx-app/src/render.test.ts::render.summarizes', qualified: 'render.summarizes', kind: 'function', path: 'src/render.test.ts', lines: [6], origin: 'ast_resolved', test: true },
        { id: 'ctx-app/src/render.ts::Renderer.draw', qualified: 'Renderer.draw', kind: 'method', path: 'src/render.ts', lines: [11], origin: 'ast_resolved' },
      ]);
      expect(c.callers_total).toBe(2);
      expect(c.callees).toEqual([
        { id: 'ctx-app/src/shapes.ts::Shape.name', qualified: 'Shape.name', kind: 'method', path: 'src/shapes.ts', line: 16, origin: 'ast_resolved' },
        { id: 'ctx-app/src/shapes.ts::Shape.area', qualified: 'Shape.area', kind: 'method', path: 'src/shapes.ts', line: 17, origin: 'ast_resolved' },
      ]);
      expect(c.unresolved_calls).toEqual(['*.log']);
      expect(c.tests.tests.map((t: { id: string }) => t.id)).toEqual(['ctx-app/src/render.test.ts::render.summarizes']);
      expect(c.tests.test_files).toEqual([{ path: 'src/render.test.ts', reasons: ['calls', 'imports'], runners: ['jest'], tests: 1 }]);
      expect(c.tests.commands).toEqual([{ runner: 'jest', cwd: '.', command: 'npx jest src/render.test.ts' }]);
      expect(c.imports).toEqual([
        { line: 1, module: 'src/shapes.ts', status: 'resolved', names: ['Circle', 'Shape'] },
        { line: 2, module: 'src/config.ts', status: 'resolved', names: ['Config', 'VERSION', 'applyConfig', 'defaultConfig', 'loadConfig'] },
        { line: 3, module: 'src/format.ts', status: 'resolved', names: ['formatLabel', 'shout'] },
      ]);
      expect(c.max_bytes).toBe(32000);
      expect(c.truncated).toBe(false);
      expect(c.cut).toBeUndefined();
      expect(c.used_bytes).toBe(Buffer.byteLength(JSON.stringify({ ...c, used_bytes: c.used_bytes })));
    });

    test('a tight budget keeps the symbol, cuts the rest in priority order and says what it cut', async () => {
      const c = await call(app, 'get_editing_context', { id: 'summarize', max_bytes: 1240 });
      expect(c.truncated).toBe(true);
      expect(c.used_bytes).toBeLessThanOrEqual(1240);
      expect(c.source.end_line).toBe(18);
      expect(c.callers).toHaveLength(2);
      // Sections fill row by row: the test row did not fit, the smaller test-file row did.
      expect(c.cut).toEqual({ tests: 1, callees: 2, imports: 3 });
      expect(c.tests.test_files).toHaveLength(1);
      // max_tokens counts four bytes each; the tighter budget wins.
      const t = await call(app, 'get_editing_context', { id: 'summarize', max_tokens: 200, max_bytes: 5000 });
      expect(t.max_bytes).toBe(800);
      expect(t.used_bytes).toBeLessThanOrEqual(800);
      expect(t.cut.source_lines).toBeGreaterThan(0);
    });

    test('include_source false leaves the source out', async () => {
      const c = await call(app, 'get_editing_context', { id: 'Renderer.draw', include_source: false });
      expect(c.source).toBeUndefined();
      expect(c.parent).toBe('Renderer');
      expect(c.callers.map((x: { qualified: string }) => x.qualified)).toEqual(['main']);
    });

    test('bad input: unknown id, a file, a budget below the floor', async () => {
      expect((await refusal(app, 'get_editing_context', { id: 'no_such_symbol' })).code).toBe('not_found');
      expect(await refusal(app, 'get_editing_context', { id: 'src/render.ts' })).toEqual({
        code: 'invalid_argument',
        message:
          'get_editing_context: ctx-app/src/render.ts is a file; pass a symbol (function, method, type, …) — get_file_summary and read_file cover files',
      });
      expect((await refusal(app, 'get_editing_context', { id: 'summarize', max_bytes: 10 })).message).toBe(
        'get_editing_context: max_bytes: Too small: expected number to be >=256',
      );
    });
  });

  describe('get_test_targets', () => {
    test('a TypeScript function: the jest test calling it and its file', async () => {
      const t = await call(app, 'get_test_targets', { id: 'summarize' });
      expect(t.target).toEqual({ id: 'ctx-app/src/render.ts::summarize', qualified: 'summarize', kind: 'function', path: 'src/render.ts', line: 15 });
      expect(t.tests).toEqual([
        {
          id: 'ctx-app/src/render.test.ts::render.summarizes',
          qualified: 'render.summarizes',
          path: 'src/render.test.ts',
          line: 5,
          depth: 1,
          origin: 'ast_resolved',
          covers: 'ctx-app/src/render.ts::summarize',
          runner: 'jest',
          is_test: true,
        },
      ]);
      expect(t.commands).toEqual([{ runner: 'jest', cwd: '.', command: 'npx jest src/render.test.ts' }]);
      expect(t.note).toBeUndefined();
    });

    test('a Go function reached through a test helper (two hops): go test from the module root', async () => {
      const t = await call(search, 'get_test_targets', { id: 'ChargeCard' });
      expect(t.tests.map((x: { qualified: string; depth: number; is_test: boolean; via?: string }) => [x.qualified, x.depth, x.is_test, x.via])).toEqual([
        ['chargeCard', 1, false, undefined],
        ['TestChargeCard', 2, true, 'ctx-search/go/payments/payments_test.go::chargeCard'],
      ]);
      expect(t.test_files).toEqual([{ path: 'go/payments/payments_test.go', reasons: ['calls'], runners: ['gotest'], tests: 1 }]);
      expect(t.commands).toEqual([{ runner: 'gotest', cwd: 'go', command: "go test ./payments -run '^(TestChargeCard)$'" }]);
    });

    test('a Python file: pytest node ids', async () => {
      const t = await call(search, 'get_test_targets', { path: 'py/app/users.py' });
      expect(t.target).toEqual({ path: 'py/app/users.py' });
      expect(t.tests.map((x: { qualified: string }) => x.qualified)).toEqual(['create_user', 'test_create_user']);
      expect(t.commands).toEqual([{ runner: 'pytest', cwd: '.', command: 'python -m pytest py/tests/test_users.py::test_create_user' }]);
    });

    test('a file covered only by a test file importing it', async () => {
      const t = await call(search, 'get_test_targets', { path: 'ts/src/users/userService.ts' });
      expect(t.tests).toEqual([]);
      expect(t.test_files).toEqual([{ path: 'ts/test/userService.test.ts', reasons: ['imports'], runners: ['jest'], tests: 0 }]);
      expect(t.commands).toEqual([{ runner: 'jest', cwd: '.', command: 'npx jest ts/test/userService.test.ts' }]);
    });

    test('a test file or a test covers itself', async () => {
      const file = await call(search, 'get_test_targets', { path: 'go/payments/payments_test.go' });
      expect(file.tests.map((x: { qualified: string; depth: number }) => [x.qualified, x.depth])).toEqual([['TestChargeCard', 0]]);
      expect(file.test_files).toEqual([{ path: 'go/payments/payments_test.go', reasons: ['self'], runners: ['gotest'], tests: 1 }]);
      expect(file.commands).toEqual([{ runner: 'gotest', cwd: 'go', command: "go test ./payments -run '^(TestChargeCard)$'" }]);
      const test = await call(app, 'get_test_targets', { id: 'render.summarizes' });
      expect(test.tests.map((x: { id: string; depth: number }) => [x.id, x.depth])).toEqual([['ctx-app/src/render.test.ts::render.summarizes', 0]]);
      expect(test.commands).toEqual([{ runner: 'jest', cwd: '.', command: 'npx jest src/render.test.ts' }]);
    });

    test('nothing covers it: an empty answer that says so', async () => {
      const t = await call(app, 'get_test_targets', { id: 'unusedHelper' });
      expect(t.tests).toEqual([]);
      expect(t.test_files).toEqual([]);
      expect(t.commands).toEqual([]);
      expect(t.note).toBe('no covering tests found: no test code calls it within 2 hops and no test file depends on src/config.ts');
    });

    test('bad input: both or neither of id and path, unknown targets', async () => {
      const both = await refusal(app, 'get_test_targets', { id: 'summarize', path: 'src/render.ts' });
      expect(both).toEqual({ code: 'invalid_argument', message: 'get_test_targets: pass exactly one of id (a symbol) or path (a file)' });
      expect((await refusal(app, 'get_test_targets', {})).code).toBe('invalid_argument');
      expect(await refusal(app, 'get_test_targets', { path: 'src/nope.ts' })).toEqual({
        code: 'not_found',
        message: 'get_test_targets: no indexed file "src/nope.ts" (paths are repository-relative)',
      });
      expect((await refusal(app, 'get_test_targets', { id: 'nope_nothing' })).code).toBe('not_found');
    });
  });
});
