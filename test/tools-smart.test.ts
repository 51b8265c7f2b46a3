/**
 * The task-aware context tools (`ts/tools/context-smart.ts`) through the registry's door
 * (`callTool` with the family: validation, dispatch, error codes) on a real `Engine` that indexed
 * temp copies of the `query/app-ts` and `query/search-app` fixtures.
 */
import { smartTools } from '../ts/tools/context-smart';
import { etagOf } from '../ts/tools/context-smart-pack';
import type { ToolDef } from '../ts/tools/registry';
import type { ToolContext } from '../ts/workspace/context';
import { fixtureCopy } from './helpers/repo';
import { openToolContext as open, toolCaller } from './helpers/tools';

const { call, refusal } = toolCaller(smartTools as readonly ToolDef[]);

/** Qualified names of a smart_context working set, in rank order. */
const workingSet = (r: any): string[] => r.working_set.flatMap((f: any) => f.symbols.map((s: any) => s.qualified));

const SUMMARIZE_TASK = 'fix summarize in src/render.ts so it prints the area';

describe('task-aware context tools', () => {
  let app: ToolContext;
  let search: ToolContext;

  beforeAll(async () => {
    app = await open(fixtureCopy('query/app-ts', 'smart-app'));
    search = await open(fixtureCopy('query/search-app', 'smart-search'));
  });

  test('the family: names and read-only effects', () => {
    expect(smartTools.map((t) => t.name)).toEqual(['smart_context', 'plan_turn', 'prefetch_context', 'get_untested_symbols', 'export_context']);
    for (const t of smartTools) {
      expect(t.effect).toBe('read');
      expect(t.description.length).toBeGreaterThan(40);
    }
  });

  describe('smart_context', () => {
    test('the working set clustered by file, with sources, blast radius and covering tests', async () => {
      const r = await call(app, 'smart_context', { task: SUMMARIZE_TASK });
      expect(r.working_set.map((f: any) => f.path)).toEqual(['src/render.ts', 'src/shapes.ts', 'src/render.test.ts']);
      // Bodies speak too: draw calls summarize, Cube.volume multiplies an area.
      expect(workingSet(r)).toEqual(['summarize', 'Renderer.draw', 'Shape.area', 'Square.area', 'Circle.area', 'Cube.volume', 'Shape', 'render.summarizes']);
      const top = r.working_set[0].symbols[0];
      expect(top).toEqual({
        rank: 1,
        id: 'smart-app/src/render.ts::summarize',
        qualified: 'summarize',
        kind: 'function',
        path: 'src/render.ts',
        lines: '15-18',
        signature: 'function summarize(s: Shape): string',
        reason: 'text #1; body #1; in src/render.ts; file content #1',
        source: 'export function summarize(s: Shape): string {\n  console.log(s.name());\n  return s.name() + s.area();\n}\n',
      });
      expect(r.blast_radius.targets).toEqual(['summarize', 'Shape.area', 'Square.area']);
      expect(r.blast_radius.dependents).toEqual([
        {
          path: 'src/render.ts',
          symbols: [
            { qualified: 'Renderer.draw', kind: 'method', line: 10, depth: 1, kinds: ['calls'], of: 'summarize' },
            { qualified: 'main', kind: 'function', line: 24, depth: 2, kinds: ['calls'], of: 'summarize' },
          ],
        },
        { path: 'src/shapes.ts', symbols: [{ qualified: 'Cube.volume', kind: 'method', line: 32, depth: 1, kinds: ['calls'], of: 'Square.area' }] },
      ]);
      expect(r.blast_radius.tests).toEqual({
        tests: [{ qualified: 'render.summarizes', path: 'src/render.test.ts', line: 5, depth: 1, covers: 'summarize', runner: 'jest' }],
        test_files: [{ path: 'src/render.test.ts', reasons: ['calls', 'imports'], runners: ['jest'], tests: 1 }],
        commands: [{ runner: 'jest', cwd: '.', command: 'npx jest src/render.test.ts' }],
      });
      expect(r.completeness).toBe('complete');
      expect(r.truncated).toBe(false);
      expect(r.cut).toBeUndefined();
      expect(r.token_budget).toBe(4000);
      expect(r.etag).toMatch(/^[0-9a-f]{16}$/);
      // The etag is the hash of the payload it rides on.
      const { etag, ...payload } = r;
      expect(etagOf(payload)).toBe(etag);
    });

    test('a target no test reaches carries the no-covering-tests caveat', async () => {
      const r = await call(search, 'smart_context', { task: 'normalizeWhitespace collapses tabs wrong' });
      expect(workingSet(r).slice(0, 2)).toEqual(['normalizeWhitespace', 'slugify']);
      expect(r.blast_radius.caveats).toContain('no covering tests found for normalizeWhitespace');
      // formatName and slugify are in the working set themselves (their bodies normalise whitespace).
      expect(r.blast_radius.dependents.find((f: any) => f.path === 'ts/src/util/strings.ts').symbols.map((s: any) => s.qualified)).toEqual(['parseHTTPResponse']);
    });

    test('a tight budget cuts sources, dependents, then rows, and says so', async () => {
      const r = await call(app, 'smart_context', { task: SUMMARIZE_TASK, token_budget: 500 });
      expect(r.truncated).toBe(true);
      expect(r.cut).toEqual({ sources: 8, rows: 3, dependents: 3 });
      expect(workingSet(r)).toEqual(['summarize', 'Shape.area', 'Square.area', 'Circle.area', 'Cube.volume']);
      expect(r.working_set.flatMap((f: any) => f.symbols).some((s: any) => s.source !== undefined)).toBe(false);
      expect(r.blast_radius.dependents).toEqual([]);
      expect(r.tokens_used).toBeLessThanOrEqual(500);
      // tokens_used is the size of the payload as sent, etag aside (the etag hashes that payload).
      const { etag: _etag, ...payload } = r;
      expect(r.tokens_used).toBe(Math.ceil(Buffer.byteLength(JSON.stringify(payload), 'utf8') / 4));
    });

    test('estimate: sizes per section, no bodies, and the etag of the full answer', async () => {
      const e = await call(app, 'smart_context', { task: SUMMARIZE_TASK, estimate: true });
      const full = await call(app, 'smart_context', { task: SUMMARIZE_TASK });
      expect(e).toEqual({
        task: SUMMARIZE_TASK,
        estimate: true,
        sections: {
          working_set: { symbols: 8, tokens: 663, source_tokens: 138 },
          blast_radius: { dependents: 3, tokens: 118 },
          tests: { tests: 1, tokens: 79 },
        },
        total_tokens: 912,
        token_budget: 4000,
        fits: true,
        etag: full.etag,
      });
      const tight = await call(app, 'smart_context', { task: SUMMARIZE_TASK, estimate: true, token_budget: 500 });
      expect(tight.fits).toBe(false);
      // The budget's own digits (500 against 4000) are part of the answer: one byte less, the same tokens here.
      expect(tight.total_tokens).toBe(912);
    });

    test('if_none_match: the current etag answers not_modified; a stale one gets the full pack', async () => {
      const first = await call(app, 'smart_context', { task: SUMMARIZE_TASK });
      expect(await call(app, 'smart_context', { task: SUMMARIZE_TASK, if_none_match: first.etag })).toEqual({ not_modified: true, etag: first.etag });
      const stale = await call(app, 'smart_context', { task: SUMMARIZE_TASK, if_none_match: '0123456789abcdef' });
      expect(stale).toEqual(first);
      // A different budget is a different pack, so the old tag no longer matches.
      const other = await call(app, 'smart_context', { task: SUMMARIZE_TASK, token_budget: 500, if_none_match: first.etag });
      expect(other.not_modified).toBeUndefined();
      expect(other.etag).not.toBe(first.etag);
    });

    test('nothing matches: an empty working set that says so', async () => {
      const r = await call(app, 'smart_context', { task: 'zzqx wobble' });
      expect(r.working_set).toEqual([]);
      expect(r.blast_radius.targets).toEqual([]);
      expect(r.completeness).toBe('empty: nothing in the index matched the task; name a symbol, file or error message');
    });

    test('bad input: blank task, budgets out of range, empty if_none_match', async () => {
      expect(await refusal(app, 'smart_context', { task: '   ' })).toEqual({
        code: 'invalid_argument',
        message: 'smart_context: task must not be blank; describe the task or paste the bug report',
      });
      expect((await refusal(app, 'smart_context', { task: '' })).code).toBe('invalid_argument');
      expect((await refusal(app, 'smart_context', {})).message).toMatch(/^smart_context: task: /);
      expect((await refusal(app, 'smart_context', { task: 'x', token_budget: 499 })).message).toMatch(/^smart_context: token_budget: /);
      expect((await refusal(app, 'smart_context', { task: 'x', token_budget: 24001 })).message).toMatch(/^smart_context: token_budget: /);
      expect((await refusal(app, 'smart_context', { task: 'x', if_none_match: '' })).message).toMatch(/^smart_context: if_none_match: /);
    });
  });

  describe('plan_turn', () => {
    test('a stack trace: explore, the quoted message, then read, callers and tests of the top frame', async () => {
      const task = 'TypeError: cannot read name\n    at summarize (src/render.ts:16:5)\n    at Renderer.draw (src/render.ts:11:12)';
      const id = 'smart-app/src/render.ts::summarize';
      expect(await call(app, 'plan_turn', { task })).toEqual({
        intent: 'fix',
        signals: ['stack trace (2 frames)', 'identifier TypeError', 'literal "cannot read name"'],
        top_hit: { id, qualified: 'summarize', path: 'src/render.ts', lines: '15-18' },
        steps: [
          { tool: 'explore', args: { task }, why: 'rank the code the task is about' },
          { tool: 'search_text', args: { query: 'cannot read name' }, why: 'where the quoted text is in the code' },
          { tool: 'get_symbol_source', args: { id }, why: 'read the top hit summarize' },
          { tool: 'get_callers', args: { id }, why: 'callers to keep working before editing' },
          { tool: 'get_test_targets', args: { id }, why: 'tests to run after the change' },
        ],
        tokens_used: 225,
      });
    });

    test('a rename of a named symbol goes straight to its usages', async () => {
      const id = 'smart-app/src/format.ts::formatLabel';
      const r = await call(app, 'plan_turn', { task: 'rename `formatLabel` to formatTag' });
      expect(r.intent).toBe('rename');
      expect(r.signals).toEqual(['identifier formatLabel', 'identifier formatTag']);
      expect(r.steps).toEqual([
        { tool: 'find_usages', args: { id }, why: 'every reference the rename of formatLabel must change' },
        { tool: 'get_test_targets', args: { id }, why: 'tests to run after the change' },
      ]);
      expect(r.tokens_used).toBe(121);
    });

    test('a test task names the file and starts from existing coverage', async () => {
      const id = 'smart-search/ts/src/util/strings.ts::slugify';
      const r = await call(search, 'plan_turn', { task: 'add tests for slugify in ts/src/util/strings.ts' });
      expect(r.intent).toBe('test');
      expect(r.steps.map((s: any) => [s.tool, s.args])).toEqual([
        ['explore', { task: 'add tests for slugify in ts/src/util/strings.ts' }],
        ['get_file_summary', { path: 'ts/src/util/strings.ts' }],
        ['get_test_targets', { id }],
        ['get_symbol_source', { id }],
        ['get_callers', { id }],
      ]);
    });

    test('a question reads forward: source, call chain, callers', async () => {
      const r = await call(app, 'plan_turn', { task: 'how does loadConfig work' });
      expect(r.intent).toBe('explain');
      expect(r.steps.map((s: any) => s.tool)).toEqual(['explore', 'get_symbol_source', 'get_call_chain', 'get_callers']);
      expect(r.top_hit.id).toBe('smart-app/src/config.ts::loadConfig');
    });

    test('no symbol matches: explore only, and the plan says so', async () => {
      expect(await call(search, 'plan_turn', { task: 'fix the bug' })).toEqual({
        intent: 'fix',
        signals: ['no symbol matched'],
        steps: [{ tool: 'explore', args: { task: 'fix the bug' }, why: 'rank the code the task is about' }],
        tokens_used: 41,
      });
    });

    test('a long task is pre-filled by its head; a blank one is refused', async () => {
      const task = `update summarize\n${'padding words here '.repeat(30)}`;
      const r = await call(app, 'plan_turn', { task });
      expect(r.steps[0].args.task).toBe(task.trim().slice(0, 240));
      expect((await refusal(app, 'plan_turn', { task: ' \n ' })).message).toBe('plan_turn: task must not be blank; describe the task or paste the bug report');
      expect((await refusal(app, 'plan_turn', {})).code).toBe('invalid_argument');
    });
  });

  describe('prefetch_context', () => {
    test('ids: callees with source, callers with signatures, unknown ids as error rows', async () => {
      const r = await call(app, 'prefetch_context', { ids: ['summarize', 'nope'] });
      expect(r.symbols).toEqual([
        { id: 'smart-app/src/shapes.ts::Shape.area', qualified: 'Shape.area', kind: 'method', path: 'src/shapes.ts', lines: '3', signature: 'area(): number', reason: 'callee of summarize', source: '  area(): number;\n' },
        { id: 'smart-app/src/shapes.ts::Shape.name', qualified: 'Shape.name', kind: 'method', path: 'src/shapes.ts', lines: '4', signature: 'name(): string', reason: 'callee of summarize', source: '  name(): string;\n' },
        { id: 'smart-app/src/render.test.ts::render.summarizes', qualified: 'render.summarizes', kind: 'function', path: 'src/render.test.ts', lines: '5-7', signature: "it('summarizes')", reason: 'caller of summarize' },
        { id: 'smart-app/src/render.ts::Renderer.draw', qualified: 'Renderer.draw', kind: 'method', path: 'src/render.ts', lines: '10-12', signature: 'draw(shape: Shape): string', reason: 'caller of summarize' },
      ]);
      expect(r.errors).toEqual([
        { id: 'nope', code: 'not_found', message: 'no node matches "nope" (tried node id, file path, qualified and bare symbol name); no similar names exist' },
      ]);
      expect(r).toMatchObject({ token_budget: 2000, tokens_used: 268, truncated: false });
    });

    test('task: explore rows under a tight budget, sources cut first', async () => {
      const r = await call(search, 'prefetch_context', { task: 'charge the card in the payment gateway', token_budget: 300 });
      expect(r.symbols.map((s: any) => [s.qualified, s.reason])).toEqual([
        ['PaymentGateway.chargeCard', 'explore #1'],
        ['ChargeCard', 'explore #2'],
        ['Gateway', 'explore #3'],
        ['NewGateway', 'explore #4'],
      ]);
      expect(r.symbols.some((s: any) => s.source !== undefined)).toBe(false);
      expect(r).toMatchObject({ token_budget: 300, tokens_used: 265, truncated: true, cut: { sources: 8, rows: 4 } });
    });

    test('bad input: neither or both of ids/task, blank task, budgets out of range', async () => {
      const both = 'prefetch_context: pass exactly one of ids (symbols) or task (free text)';
      expect(await refusal(app, 'prefetch_context', {})).toEqual({ code: 'invalid_argument', message: both });
      expect(await refusal(app, 'prefetch_context', { ids: ['summarize'], task: 'x' })).toEqual({ code: 'invalid_argument', message: both });
      expect((await refusal(app, 'prefetch_context', { task: '  ' })).message).toBe('prefetch_context: task must not be blank; describe the task or paste the bug report');
      expect((await refusal(app, 'prefetch_context', { ids: [] })).message).toMatch(/^prefetch_context: ids: /);
      expect((await refusal(app, 'prefetch_context', { ids: ['summarize'], token_budget: 199 })).message).toMatch(/^prefetch_context: token_budget: /);
      expect((await refusal(app, 'prefetch_context', { ids: ['summarize'], token_budget: 24001 })).message).toMatch(/^prefetch_context: token_budget: /);
    });
  });

  describe('get_untested_symbols', () => {
    test('app-ts: uncovered functions and methods, riskiest first, test-imported files excluded', async () => {
      const r = await call(app, 'get_untested_symbols', {});
      expect(r.symbols.map((s: any) => [s.qualified, s.path, s.fan_in])).toEqual([
        ['loadConfig', 'src/config.ts', 2],
        ['formatLabel', 'src/format.ts', 2],
        ['applyConfig', 'src/config.ts', 1],
        ['padLabel', 'src/format.ts', 1],
        ['shout', 'src/format.ts', 1],
        ['cli', 'src/cli.ts', 0],
        ['unusedHelper', 'src/config.ts', 0],
        ['Sink.flush', 'src/format.ts', 0],
        ['Pipe.flush', 'src/format.ts', 0],
        ['legacyBanner', 'src/legacy.ts', 0],
      ]);
      expect(r.symbols[0]).toEqual({
        id: 'smart-app/src/config.ts::loadConfig',
        qualified: 'loadConfig',
        kind: 'function',
        path: 'src/config.ts',
        line: 8,
        fan_in: 2,
        exported: true,
        signature: 'function loadConfig(): Config',
      });
      expect(r).toMatchObject({ total: 10, examined: 25, truncated: false });
      expect(r.errors).toBeUndefined();
    });

    test('filters: kind, path prefix with limit, exported_only (methods follow their class)', async () => {
      const methods = await call(app, 'get_untested_symbols', { kind: 'method' });
      expect(methods.symbols.map((s: any) => s.qualified)).toEqual(['Sink.flush', 'Pipe.flush']);
      expect(methods).toMatchObject({ total: 2, examined: 14, truncated: false });
      const py = await call(search, 'get_untested_symbols', { path: 'py/', limit: 2 });
      expect(py.symbols.map((s: any) => s.qualified)).toEqual(['charge_card', 'refund_payment']);
      expect(py).toMatchObject({ total: 3, examined: 7, truncated: true });
      const pay = await call(search, 'get_untested_symbols', { path: 'ts/src/payments', exported_only: true });
      expect(pay.symbols.map((s: any) => [s.qualified, s.exported])).toEqual([
        ['PaymentGateway.chargeCard', true],
        ['PaymentGateway.refundPayment', true],
      ]);
      // Helpers below three hops from a test are still untested: the hub of strings.ts leads.
      const all = await call(search, 'get_untested_symbols', { limit: 1 });
      expect(all.symbols.map((s: any) => [s.qualified, s.fan_in])).toEqual([['normalizeWhitespace', 6]]);
      expect(all).toMatchObject({ total: 12, examined: 27, truncated: true });
    });

    test('bad input: unknown kind, limit out of range, blank path; an unindexed prefix is empty', async () => {
      expect((await refusal(app, 'get_untested_symbols', { kind: 'class' })).message).toBe('get_untested_symbols: unknown kind "class"; expected one of: function, method');
      expect((await refusal(app, 'get_untested_symbols', { limit: 0 })).message).toMatch(/^get_untested_symbols: limit: /);
      expect((await refusal(app, 'get_untested_symbols', { limit: 1001 })).message).toMatch(/^get_untested_symbols: limit: /);
      expect(await refusal(app, 'get_untested_symbols', { path: ' ' })).toEqual({ code: 'invalid_argument', message: 'get_untested_symbols: path must not be blank' });
      expect(await call(app, 'get_untested_symbols', { path: 'nowhere/' })).toEqual({ symbols: [], total: 0, examined: 0, truncated: false });
    });
  });

  describe('export_context', () => {
    test('markdown: heading, location, signature, relations and fenced source per symbol', async () => {
      const r = await call(app, 'export_context', { ids: ['summarize', 'Circle.area'] });
      expect(r.markdown).toBe(
        [
          '# Code context: smart-app',
          '',
          '## Symbols (2)',
          '',
          '### 1. `summarize` (function)',
          '',
          '- Location: `src/render.ts:15-18`',
          '- Signature: `function summarize(s: Shape): string`',
          '- Called by: `render.summarizes`, `Renderer.draw`',
          '- Calls: `Shape.area`, `Shape.name`',
          '',
          '```typescript',
          'export function summarize(s: Shape): string {',
          '  console.log(s.name());',
          '  return s.name() + s.area();',
          '}',
          '```',
          '',
          '### 2. `Circle.area` (method)',
          '',
          '- Location: `src/shapes.ts:13-15`',
          '- Signature: `area(): number`',
          '',
          '```typescript',
          '  area(): number {',
          '    return 3 * this.r * this.r;',
          '  }',
          '```',
          '',
        ].join('\n'),
      );
      expect(r).toMatchObject({ format: 'markdown', symbols: 2, token_budget: 6000, tokens_used: 168, truncated: false });
      expect(r.bundle).toBeUndefined();
    });

    test('json: the structured bundle', async () => {
      expect(await call(app, 'export_context', { ids: ['formatLabel'], format: 'json' })).toEqual({
        format: 'json',
        bundle: {
          repo: 'smart-app',
          symbols: [
            {
              id: 'smart-app/src/format.ts::formatLabel',
              qualified: 'formatLabel',
              kind: 'function',
              path: 'src/format.ts',
              lines: '1-3',
              signature: 'function formatLabel(text: string): string',
              reason: 'requested',
              source: "export function formatLabel(text: string): string {\n  return '[' + text + ']';\n}\n",
              language: 'typescript',
              callers: ['cli', 'Renderer.draw'],
              callees: [],
            },
          ],
        },
        symbols: 1,
        token_budget: 6000,
        tokens_used: 125,
        truncated: false,
      });
    });

    test('a task under a tight budget: truncation reported in the answer and in the text', async () => {
      const r = await call(app, 'export_context', { task: 'summarize shapes area', token_budget: 200 });
      expect(r).toMatchObject({ symbols: 3, tokens_used: 198, truncated: true, cut: { sources: 8, rows: 5 } });
      expect(r.markdown).toContain('## Task\n\nsummarize shapes area\n');
      expect(r.markdown).not.toContain('```');
      expect(r.markdown.endsWith('_Truncated to fit the budget: 8 source bodies and 5 symbols left out._\n')).toBe(true);
    });

    test('bad input: unknown ids are error rows; bad format, budgets and id/task pairs are refused', async () => {
      const r = await call(app, 'export_context', { ids: ['nope'], format: 'json' });
      expect(r.bundle.symbols).toEqual([]);
      expect(r.errors.map((e: any) => [e.id, e.code])).toEqual([['nope', 'not_found']]);
      expect((await refusal(app, 'export_context', { ids: ['summarize'], format: 'html' })).message).toBe('export_context: unknown format "html"; expected one of: markdown, json');
      expect((await refusal(app, 'export_context', { ids: ['summarize'], token_budget: 24001 })).message).toMatch(/^export_context: token_budget: /);
      expect((await refusal(app, 'export_context', {})).message).toBe('export_context: pass exactly one of ids (symbols) or task (free text)');
      expect((await refusal(app, 'export_context', { task: '' })).message).toMatch(/^export_context: task: /);
    });
  });
});
