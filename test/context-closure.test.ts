/**
 * `context_closure` through `gortex mcp` over stdio (and the compact `explore.closure`): the
 * dependency closure of seeds (a symbol, or a file for its declarations), ranked by distance or by
 * a random walk restarting at the seeds, the files it spans, test code left out, and the
 * budget cutting sources then rows.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { gitRepo } from './helpers/repo';

const FILES = {
  'src/main.ts': `import { parse } from './parse';
import { render } from './render';

export function main(input: string): string {
  return render(parse(input));
}
`,
  'src/parse.ts': `import { tokenize } from './lex';

export function parse(input: string): string[] {
  return tokenize(input).filter((t) => t !== '');
}
`,
  'src/lex.ts': `export function tokenize(input: string): string[] {
  return input.split(' ');
}
`,
  'src/render.ts': `import { format } from './format';

export function render(parts: string[]): string {
  return parts.map(format).join(',');
}
`,
  'src/format.ts': `export function format(part: string): string {
  return part.trim();
}

export function unused(): number {
  return 1;
}
`,
  'src/main.test.ts': `import { main } from './main';

test('main joins the parts', () => {
  expect(main('a b')).toBe('a,b');
});
`,
};

describe('context_closure over MCP', () => {
  const root = gitRepo('closure', FILES);
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
  });

  const names = (r: any): string[] => r.symbols.map((s: any) => s.qualified);

  it('walks what the seed uses, nearest first, with the files it spans', async () => {
    const r = await okJson(client, 'context_closure', { seeds: ['main'] });
    expect(names(r)).toEqual(['main', 'parse', 'render', 'format', 'tokenize']);
    expect(r.symbols[0]).toMatchObject({ reason: 'seed', source: expect.stringContaining('render(parse(input))') });
    expect(r.symbols.find((s: any) => s.qualified === 'tokenize').reason).toBe('depth 2, used by parse');
    expect(r.files).toEqual([
      { path: 'src/main.ts', depth: 0 },
      { path: 'src/parse.ts', depth: 1 },
      { path: 'src/render.ts', depth: 1 },
      { path: 'src/format.ts', depth: 2 },
      { path: 'src/lex.ts', depth: 2 },
    ]);
    expect(r.closure).toMatchObject({ symbols: 5 });
    expect(r.tokens_used).toBeLessThanOrEqual(r.token_budget);
    const shallow = await okJson(client, 'context_closure', { seeds: ['main'], depth: 1 });
    expect(names(shallow)).toEqual(['main', 'parse', 'render']);
  });

  it('a file seed stands for its declarations; proximity ranks by the walk from the seeds', async () => {
    const r = await okJson(client, 'context_closure', { seeds: ['src/render.ts'] });
    expect(names(r)).toEqual(['render', 'format']);
    const p = await okJson(client, 'context_closure', { seeds: ['main'], rank: 'proximity' });
    expect(p.rank).toBe('proximity');
    expect(names(p)[0]).toBe('main');
    expect(new Set(names(p))).toEqual(new Set(['main', 'parse', 'render', 'format', 'tokenize']));
  });

  it('the budget cuts sources from the bottom first, then rows', async () => {
    const r = await okJson(client, 'context_closure', { seeds: ['main'], token_budget: 200 });
    expect(r.tokens_used).toBeLessThanOrEqual(220);
    expect(r.cut.sources + r.cut.rows).toBeGreaterThan(0);
    expect(r.symbols[0].qualified).toBe('main');
  });

  it('unknown seeds are reported; none known is not_found; compact explore.closure reaches it', async () => {
    const r = await okJson(client, 'context_closure', { seeds: ['main', 'nosuchthing'] });
    expect(r.errors).toEqual([expect.objectContaining({ seed: 'nosuchthing', code: 'not_found' })]);
    const none = await callJson(client, 'context_closure', { seeds: ['nosuchthing'] });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/^not_found: no seed names a symbol or an indexed file/);
    const compact = await startStdio(root, 'compact');
    try {
      const c = await okJson(compact, 'explore', { operation: 'closure', options: { seeds: ['render'] } });
      expect(c.symbols.map((s: any) => s.qualified)).toEqual(['render', 'format']);
    } finally {
      await compact.close();
    }
  });
});
