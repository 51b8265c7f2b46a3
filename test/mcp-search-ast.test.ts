/**
 * `search_ast` through `gortex mcp` over stdio (full and compact `search.ast`) and `gortex call`:
 * a raw tree-sitter pattern with its captures, a bundled detector, and a malformed pattern refused
 * with its line and column.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { runCli } from './helpers/cli';
import { gitRepo } from './helpers/repo';

const SOURCE = `import { createHash } from 'node:crypto';

export function digest(input: string): string {
  return createHash('md5').update(input).digest('hex');
}

export function run(code: string): unknown {
  return eval(code);
}

export function quiet(code: string): void {
  try {
    run(code);
  } catch (e) {}
}
`;

describe('search_ast over MCP and the CLI', () => {
  const root = gitRepo('shapes', { 'src/lib.ts': SOURCE });
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('a pattern returns each match with its captures and enclosing symbol', async () => {
    const r = await okJson(client, 'search_ast', {
      language: 'typescript',
      pattern: '(call_expression function: (identifier) @fn (#eq? @fn "createHash") arguments: (arguments (string) @algorithm))',
    });
    expect(r.matches).toEqual([expect.objectContaining({ path: 'src/lib.ts', line: 4, captures: { fn: 'createHash', algorithm: "'md5'" }, symbol: expect.objectContaining({ name: 'digest' }) })]);
    expect(r.prefilter).toEqual(['createHash']);
  });

  it('detectors: eval-injection and a review rule, through the compact search tool too', async () => {
    const evals = await okJson(client, 'search_ast', { detector: 'eval-injection' });
    expect(evals.matches.map((m: any) => `${m.path}:${m.line}`)).toEqual(['src/lib.ts:8']);
    const compact = await startStdio(root, 'compact');
    try {
      const empty = await okJson(compact, 'search', { operation: 'ast', options: { detector: 'empty-catch' } });
      expect(empty.matches).toEqual([expect.objectContaining({ path: 'src/lib.ts', line: 14, kind: 'swallowed-error', symbol: expect.objectContaining({ name: 'quiet' }) })]);
      const raw = await okJson(compact, 'search', { operation: 'ast', query: '(return_statement) @r', options: { language: 'typescript' } });
      expect(raw.matches.map((m: any) => m.line)).toEqual([4, 8]);
    } finally {
      await compact.close();
    }
  });

  it('a malformed pattern is refused with where it breaks; gortex call reaches the tool', async () => {
    const bad = await callJson(client, 'search_ast', { language: 'typescript', pattern: '(call_expression\n  (nope))' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^invalid_argument: pattern line 2 column \d+: no node type `nope` in the typescript grammar/);
    const out = runCli(['call', 'search_ast', '--repo', root, '--embedded', '--arg', 'detector=eval-injection']);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).matches[0]).toMatchObject({ path: 'src/lib.ts', line: 8 });
  });
});
