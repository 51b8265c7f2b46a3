/**
 * The review rollups through `gortex mcp` over stdio: `review_pack` (findings, classification,
 * file risk, contracts, guards, tests and the verification command, the tiered pack, scrubbing,
 * the receipt) and `pr_review_context` (diff_context, verify_change, the session overlay
 * simulated, the agent-config audit → PASS / WARN / BLOCK), on a git repository whose working
 * tree breaks a signature, removes a function that is still called, fixes, adds and renames —
 * and a clean twin whose only change is a comment.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio, useEmbeddedServers } from './helpers/mcp';
import { gitRepo } from './helpers/repo';

const BASE_MATH = `export function add(a: number, b: number): number {
  return a + b;
}

export function scale(x: number, k: number): number {
  return x * k;
}

export function legacy(x: number): number {
  return x - 1;
}

export function total(xs: number[]): number {
  let sum = 0;
  for (const x of xs) sum = add(sum, x);
  return sum;
}
`;

const CHANGED_MATH = `export function add(a: number, b: number): number {
  if (a == null || b == null) throw new Error("add needs two numbers");
  return a + b;
}

export function scale(x: number, k: number, offset: number): number {
  return x * k + offset;
}

export function mul(a: number, b: number): number {
  const product = a * b;
  const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  return product;
}

export function total(values: number[]): number {
  let sum = 0;
  for (const v of values) sum = add(sum, v);
  return sum;
}
`;

const APP = `import { add, scale, legacy, total } from './math';

export function run(): number {
  return add(1, 2) + scale(2, 3) + legacy(4) + total([1, 2]);
}
`;

const TEST = `import { add } from '../src/math';

describe('add', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });
});
`;

const CLAUDE = `# Notes for agents

Use \`legacy()\` in \`src/math.ts\` for decrements. The entry point is \`run\`.
`;

const GUARDS = `guards:
  rules:
    - name: math-needs-changelog
      kind: co-change
      source: src/math.ts
      target: CHANGELOG.md
`;

function files(): Record<string, string> {
  return {
    'package.json': '{ "name": "calc", "devDependencies": { "jest": "^30.0.0" } }\n',
    'src/math.ts': BASE_MATH,
    'src/app.ts': APP,
    'test/math.test.ts': TEST,
    'CLAUDE.md': CLAUDE,
    '.gortex.yaml': GUARDS,
    'CHANGELOG.md': '# Changes\n',
  };
}

describe('review_pack and pr_review_context over MCP', () => {
  const root = gitRepo('calc', files());
  fs.writeFileSync(path.join(root, 'src/math.ts'), CHANGED_MATH);
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "calc", "version": "1.1.0", "devDependencies": { "jest": "^30.0.0" } }\n');
  const clean = gitRepo('calm', files());
  fs.writeFileSync(path.join(clean, 'src/app.ts'), APP.replace('  return add(1, 2)', '  // The sum of every operation.\n  return add(1, 2)'));
  let client: Client;
  let calm: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
    calm = await startStdio(clean, 'full');
  });
  afterAll(async () => {
    await client?.close();
    await calm?.close();
  });

  it('review_pack: a broken signature, a removed function still called and a guard violation BLOCK', async () => {
    const r = await okJson(client, 'review_pack', {});
    expect(r.verdict).toBe('BLOCK');
    expect(r.because).toEqual(expect.arrayContaining(['2 contract breaks', '1 guard violation']));
    // The rulepack ran: the hard-coded token is a finding.
    expect(r.review.findings.map((f: any) => f.rule)).toContain('hardcoded-secret');
    const sig = r.contracts.signatures.find((s: any) => s.id.endsWith('src/math.ts::scale'));
    expect(sig).toMatchObject({ verdict: 'breaking', params: { before: '2 required of 2', after: '3 required of 3' } });
    expect(sig.breaking_calls).toEqual([expect.objectContaining({ path: 'src/app.ts', line: 4 })]);
    expect(r.contracts.dangling).toEqual([expect.objectContaining({ name: 'legacy', still_called_at: expect.arrayContaining([{ path: 'src/app.ts', line: 4 }]) })]);
    expect(r.guards.violations).toEqual([expect.objectContaining({ rule: 'math-needs-changelog', severity: 'error' })]);
    const risk = r.file_risk.find((f: any) => f.path === 'src/math.ts');
    expect(risk.level).toBe('critical');
  });

  it('review_pack classifies every changed declaration and file, with why', async () => {
    const r = await okJson(client, 'review_pack', {});
    const cls = Object.fromEntries(r.symbols.map((s: any) => [s.id.split('::')[1], s.class]));
    expect(cls).toEqual({ add: 'fix', scale: 'feature', mul: 'feature', total: 'refactor', legacy: 'refactor' });
    expect(r.symbols.find((s: any) => s.id.endsWith('::total')).because).toBe('the same code with names changed');
    expect(r.symbols.find((s: any) => s.id.endsWith('::add')).because).toContain('guard');
    expect(r.files_without_declarations).toEqual([expect.objectContaining({ path: 'package.json', class: 'config' })]);
    expect(r.changes.classes).toEqual({ fix: 1, feature: 2, refactor: 2, config: 1 });
  });

  it('review_pack names the tests to run and one verification command', async () => {
    const r = await okJson(client, 'review_pack', {});
    expect(r.tests.test_files).toContain('test/math.test.ts');
    expect(r.verification_command).toContain('test/math.test.ts');
    expect(r.verification_command).toBe(r.tests.verification_command);
    expect(r.tests.untested).toEqual(expect.arrayContaining([expect.stringMatching(/::mul$/)]));
  });

  it('review_pack: a privacy-safe receipt, the tiered pack under its budget, and scrub redacts secrets', async () => {
    const r = await okJson(client, 'review_pack', { include_pack: true, max_tokens: 400, scrub: true });
    expect(r.receipt).toMatchObject({ version: 1, verdict: 'BLOCK', changed_files: 2 });
    expect(JSON.stringify(r.receipt)).not.toContain('math');
    expect(r.pack.tokens).toBeLessThanOrEqual(400);
    expect(r.pack.tiers.map((t: any) => t.tier)).toEqual([1, 2, 3]);
    expect(r.pack.items.length).toBeGreaterThan(0);
    expect(r.pack.items[0]).toMatchObject({ tier: 1, kind: 'hunk' });
    expect(JSON.stringify(r)).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(r.scrubbed.secrets_redacted).toBeGreaterThan(0);
    const big = await okJson(client, 'review_pack', { include_pack: true, max_tokens: 20000 });
    expect(big.pack.tiers.find((t: any) => t.tier === 2).items).toBeGreaterThan(0);
    expect(big.pack.items.some((i: any) => i.kind === 'caller' && i.path === 'src/app.ts')).toBe(true);
    expect(JSON.stringify(big)).toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('review_pack and pr_review_context on a comment-only change: APPROVE and PASS', async () => {
    const pack = await okJson(calm, 'review_pack', {});
    expect(pack.verdict).toBe('APPROVE');
    expect(pack.symbols).toEqual([expect.objectContaining({ class: 'refactor', because: 'only whitespace or comments changed' })]);
    const ctx = await okJson(calm, 'pr_review_context', {});
    expect(ctx.verdict).toBe('PASS');
    expect(ctx.reasons).toEqual([]);
    expect(ctx.simulate_chain.ran).toBe(false);
  });

  it('pr_review_context: verify_change breaks, the audit names the removed function, no overlay → not simulated', async () => {
    const r = await okJson(client, 'pr_review_context', {});
    expect(r.verdict).toBe('BLOCK');
    const from = (source: string): string[] => r.reasons.filter((x: any) => x.from === source).map((x: any) => x.level);
    expect(from('verify_change')).toEqual(['BLOCK', 'BLOCK']);
    expect(r.audit_agent_config.related).toEqual([expect.objectContaining({ file: 'CLAUDE.md', ref: 'legacy()', why: 'names something this change removed' })]);
    expect(from('audit_agent_config')).toEqual(['WARN']);
    expect(r.simulate_chain).toMatchObject({ ran: false });
  });

  it('pr_review_context simulates the session overlay: its pending edits that break callers BLOCK', async () => {
    // In the clean repository, an unsaved buffer renames run → start while nothing else changes.
    const before = await okJson(calm, 'pr_review_context', {});
    expect(before.verdict).toBe('PASS');
    const main = `import { run } from './app';\nexport const value = run();\n`;
    fs.writeFileSync(path.join(clean, 'src/main.ts'), main);
    await okJson(calm, 'overlay_register', {});
    await okJson(calm, 'overlay_push', { path: 'src/app.ts', content: APP.replace('export function run', 'export function start') });
    const r = await okJson(calm, 'pr_review_context', {});
    expect(r.simulate_chain.ran).toBe(true);
    expect(r.simulate_chain.touched_files).toEqual([{ path: 'src/app.ts', status: 'modified' }]);
    expect(r.simulate_chain.broken_callers).toEqual([expect.objectContaining({ path: 'src/main.ts', now: 'unbound' })]);
    expect(r.verdict).toBe('BLOCK');
    expect(r.reasons).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'simulate_chain', level: 'BLOCK' })]));
    await okJson(calm, 'overlay_drop', {});
  });

  it('audit_agent_config is a tool: the instruction files against the graph', async () => {
    const r = await okJson(client, 'audit_agent_config', {});
    expect(r.files.map((f: any) => f.path)).toEqual(['CLAUDE.md']);
    expect(r.files[0].unknown_symbols).toEqual([expect.objectContaining({ ref: 'legacy()' })]);
  });

  it('the compact review tool reaches both: review.pack and review.pr_context', async () => {
    const compact = await startStdio(root, 'compact');
    try {
      const pack = await okJson(compact, 'review', { operation: 'pack', arguments: {} });
      expect(pack.verdict).toBe('BLOCK');
      expect(pack.contracts.breaks).toBe(2);
      const ctx = await okJson(compact, 'review', { operation: 'pr_context', arguments: {} });
      expect(ctx.verdict).toBe('BLOCK');
    } finally {
      await compact.close();
    }
  });

  it('bad arguments are refused with what to fix', async () => {
    const bad = await callJson(client, 'review_pack', { base: 'no-such-ref' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('no-such-ref');
    const both = await callJson(client, 'review_pack', { diff: '--- a/x\n+++ b/x\n', base: 'HEAD' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('not both');
    const budget = await callJson(client, 'review_pack', { include_pack: true, max_tokens: 5 });
    expect(budget.isError).toBe(true);
    expect(budget.text).toContain('max_tokens');
  });
});

describe('the rollups keep the index in step with deletions (no watcher)', () => {
  const serve = useEmbeddedServers();

  it('a function removed together with the only test that called it dangles nowhere', async () => {
    const root = gitRepo('tidy', {
      'src/util.ts': 'export function keep(): number {\n  return 1;\n}\n\nexport function helper(): number {\n  return 2;\n}\n',
      'src/util.test.ts': "import { helper } from './util';\n\ntest('helper', () => {\n  expect(helper()).toBe(2);\n});\n",
    });
    const client = await serve(root);
    // The index has read the test calling helper() (a first change to it, reviewed) before it goes.
    fs.appendFileSync(path.join(root, 'src/util.test.ts'), '// helper() is tested here\n');
    expect((await okJson(client, 'review_pack', {})).verdict).toBe('APPROVE');
    fs.writeFileSync(path.join(root, 'src/util.ts'), 'export function keep(): number {\n  return 1;\n}\n');
    fs.rmSync(path.join(root, 'src/util.test.ts'));
    const r = await okJson(client, 'review_pack', {});
    expect(r.symbols.map((x: any) => [x.id.split('::')[1], x.change])).toEqual(expect.arrayContaining([['helper', 'deleted']]));
    expect(r.contracts.dangling).toEqual([]);
    expect((await okJson(client, 'search_text', { query: 'helper()' })).hits).toEqual([]);
  });
});
