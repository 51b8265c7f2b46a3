/**
 * Caller-supplied patterns never run on JavaScript's backtracking `RegExp`: through a real MCP
 * client over stdio (`gortex mcp --embedded`), a `ctx_grep` regex and a `get_editing_context`
 * glob that take a backtracking engine hours (2^40 steps) are answered correctly at once, and the
 * session keeps serving; bad patterns are refused naming the problem and the syntax expected.
 * Without the fix these calls never return: the event loop is blocked, so neither the answer nor
 * the call deadline arrives and the test times out.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { QueryError, RegexMatcher } from '../ts/engine/engine';
import { globToRegex, parseFidelityGlobs } from '../ts/tools/source-shape';
import { PACKAGE_ROOT } from './helpers/cli';
import { tempHome } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  _meta?: Record<string, unknown>;
}

/** 40 `a`s: `(a+)+$` over a line holding this run and then another character takes ~2^40 backtracking steps. */
const RUN = 'a'.repeat(40);
/** A file whose name is the run: `*a*a*…*b` (12 stars) as a JavaScript RegExp takes hours on it. */
const RUN_FILE = `src/${RUN}.ts`;
const SYNTAX = 'patterns use Rust regex syntax (https://docs.rs/regex/latest/regex/#syntax)';

/** A small TypeScript repository: a line ending in the run, and a file named after it. */
function runRepo(): string {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-test-')), 'regexapp');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  const filler = Array.from({ length: 60 }, (_, i) => `// filler line ${i + 1} keeps read_file's answer over the 2 KB kept by the session`);
  fs.writeFileSync(path.join(root, 'src', 'run.ts'), [`// ${RUN}`, `export const RUN = '${RUN}';`, ...filler, ''].join('\n'));
  fs.writeFileSync(path.join(root, RUN_FILE), 'export function longName(): number {\n  return 1;\n}\n');
  return root;
}

describe('user patterns over MCP (stdio, embedded)', () => {
  const root = runRepo();
  let client: Client;

  beforeAll(async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    delete env.NODE_ENV;
    delete env.GORTEX_TOOLS;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--embedded', '--repo', root, '--tools', 'full'],
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'gortex-regex-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<TextResult> =>
    (await client.callTool({ name, arguments: { format: 'json', ...args } })) as TextResult;
  const ok = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]!.text);
  };
  const refused = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    return result.content[0]!.text;
  };

  test('ctx_grep runs (a+)+$ over a run of 40 a’s at once, with the right answer', async () => {
    const read = await call('read_file', { path: 'src/run.ts' });
    const handle = read._meta?.response_handle as string;
    expect(handle).toMatch(/^r\d+$/);
    // In the stored (pretty-printed JSON) answer the file is one line: `…// aaa…a\nexport const RUN = 'aaa…a';\n…`.
    // `(a+)+$` fails on it after the runs (backtracking tries every split of each run), so: no match.
    for (const tool of ['ctx_grep', 'grep_results']) {
      const none = await ok(tool, { handle, pattern: '(a+)+$', regex: true });
      expect([none.total, none.matches]).toEqual([0, []]);
    }
    const hit = await ok('ctx_grep', { handle, pattern: "(a+)+';", regex: true });
    expect(hit.total).toBe(1);
    expect(hit.matches[0].text).toContain(`"text": "// ${RUN}\\n`);
    // Flags: case folding applies to regexes and literals alike.
    expect((await ok('ctx_grep', { handle, pattern: `(A+)+';`, regex: true })).total).toBe(0);
    expect((await ok('ctx_grep', { handle, pattern: `(A+)+';`, regex: true, case_sensitive: false })).total).toBe(1);
    expect((await ok('ctx_grep', { handle, pattern: `RUN = '${RUN.toUpperCase()}'`, case_sensitive: false })).total).toBe(1);
    // The session is still serving other calls.
    expect((await ok('search_symbols', { query: 'longName' })).results[0].name).toBe('longName');
  });

  test('ctx_grep refuses invalid and oversized patterns, naming the problem and the syntax', async () => {
    await call('read_file', { path: 'src/run.ts' });
    expect(await refused('ctx_grep', { pattern: '(a+', regex: true })).toBe(
      `invalid_argument: invalid regex "(a+": regex parse error:\n    (a+\n    ^\nerror: unclosed group; ${SYNTAX}`,
    );
    expect(await refused('ctx_grep', { pattern: '(a)\\1', regex: true })).toMatch(/^invalid_argument: invalid regex .*backreferences are not supported/s);
    const huge = await refused('ctx_grep', { pattern: '(\\w{500}){500}', regex: true });
    expect(huge).toMatch(/^invalid_argument: invalid regex "\(\\\\w\{500\}\)\{500\}": Compiled regex exceeds size limit of 1048576 bytes \(repeat less/);
    expect(huge.endsWith(SYNTAX)).toBe(true);
    expect(await refused('ctx_grep', { pattern: 'a'.repeat(5000), regex: true })).toBe('invalid_argument: pattern must be at most 4096 bytes, got 5000');
    // The argument's description says which syntax is expected.
    const { tools } = await client.listTools();
    const pattern = (tools.find((t) => t.name === 'ctx_grep')!.inputSchema.properties as Record<string, { description?: string }>).pattern;
    expect(pattern!.description).toContain('Rust regex syntax (https://docs.rs/regex/latest/regex/#syntax');
  });

  test('get_editing_context fidelity_globs run on the linear engine: *a*a*…*b over a 40-a name answers at once', async () => {
    const stars = `${'*a'.repeat(12)}`;
    const missed = await ok('get_editing_context', { id: 'longName', fidelity_globs: `${stars}*b:omit` });
    expect(missed.symbol.file_path).toBe(RUN_FILE);
    expect(missed.source_fidelity).toBeUndefined();
    expect(missed.source.text).toContain('return 1;');
    const matched = await ok('get_editing_context', { id: 'longName', fidelity_globs: `${stars}*.ts:omit` });
    expect(matched.source_fidelity).toBe('omit');
    expect(await refused('get_editing_context', { id: 'longName', fidelity_globs: Array.from({ length: 65 }, (_, i) => `d${i}/**:omit`).join(',') })).toBe(
      'invalid_argument: get_editing_context: fidelity_globs holds more than 64 entries; merge them with ** or fewer tiers',
    );
  });
});

describe('RegexMatcher (the addon’s linear-time engine)', () => {
  test('matches lines in one call, with counts, limits and UTF-16 ranges', () => {
    const m = new RegexMatcher('(a+)+$');
    const lines = [`${RUN}!`, 'b', `x${RUN}`, 'é😀aa'];
    expect(m.matchLines(lines)).toEqual({ matches: [{ index: 2, start: 1, end: 41 }, { index: 3, start: 3, end: 5 }], total: 2 });
    expect(m.matchLines(lines, 1)).toEqual({ matches: [{ index: 2, start: 1, end: 41 }], total: 2 });
    expect(m.test(`${RUN}!`)).toBe(false);
    expect(new RegexMatcher('A.B', { literal: true, caseInsensitive: true }).matchLines(['a.b', 'axb']).total).toBe(1);
  });

  test('refuses with a QueryError invalid_argument', () => {
    let thrown: unknown;
    try {
      new RegexMatcher('[');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(QueryError);
    expect(thrown).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('error: unclosed character class; patterns use Rust regex syntax') });
  });

  test('globs keep their meaning on the Rust engine', () => {
    expect(globToRegex('src/**/*.ts')).toBe('^src/(?:.*/)?[^/]*\\.ts$');
    expect(globToRegex('a-b#c~d&e?.go')).toBe('(?:^|/)a\\-b\\#c\\~d\\&e[^/]\\.go$');
    const [src, tests, vendor, special] = parseFidelityGlobs('src/**:full,*_test.go:omit,vendor/**/x.js:compress,(a)+[b]{2}$.ts:omit');
    expect([src!.pattern.test('src/a/b.ts'), src!.pattern.test('lib/src/a.ts')]).toEqual([true, false]);
    expect([tests!.pattern.test('pkg/x_test.go'), tests!.pattern.test('x_test.go'), tests!.pattern.test('x_test.gox')]).toEqual([true, true, false]);
    expect([vendor!.pattern.test('vendor/x.js'), vendor!.pattern.test('vendor/a/b/x.js'), vendor!.pattern.test('vendorx.js')]).toEqual([true, true, false]);
    expect([special!.pattern.test('d/(a)+[b]{2}$.ts'), special!.pattern.test('d/aab.ts')]).toEqual([true, false]);
  });
});
