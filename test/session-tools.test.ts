/**
 * The per-session store (`ts/mcp/session-store.ts`) on its own, and the session tools
 * (`ts/tools/session-tools.ts`) through the registry's door (`callTool`: validation, dispatch,
 * error codes) with a session holding a store, over a real `Engine` on a temp copy of
 * `query/app-ts`.
 */
import { sidecarAt } from '../ts/engine/sidecar';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { callTool } from '../ts/calls/dispatch';
import { ALL_TOOLS } from '../ts/tools/index';
import { SessionStore } from '../ts/workspace/session-store';
import type { SessionSurface, ToolContext } from '../ts/workspace/context';
import { sessionTools } from '../ts/tools/session-tools';
import { fixtureCopy, tempHome } from './helpers/repo';
import { toolCaller } from './helpers/tools';

const TOOLS = sessionTools();
const { call, refusal } = toolCaller(TOOLS);

/** `n` bytes of text with no newline. */
const blob = (n: number): string => 'x'.repeat(n);

describe('SessionStore', () => {
  test('keeps only responses over the size threshold, with handles never reused', () => {
    const s = new SessionStore();
    expect(s.record('search_text', {}, blob(2048))).toBeUndefined();
    expect(s.record('search_text', { query: 'a' }, blob(2049))).toBe('r1');
    expect(s.record('search_text', { query: 'b' }, blob(3000))).toBe('r2');
    expect(s.responses().map((r) => [r.handle, r.args, r.bytes, r.lines.length])).toEqual([
      ['r1', '{"query":"a"}', 2049, 1],
      ['r2', '{"query":"b"}', 3000, 1],
    ]);
    expect(s.response()?.handle).toBe('r2');
    expect(s.response('r1')?.bytes).toBe(2049);
    expect(s.response('r3')).toBeUndefined();
  });

  test('an answer recorded with its value is stored exactly as its text parsed back', () => {
    class Stamp {
      toJSON(): string {
        return 'stamped';
      }
    }
    const value = {
      rows: [1, undefined, { deep: undefined, kept: 2 }],
      gone: undefined,
      fn: () => 1,
      nested: { a: 1, b: undefined, c: new Stamp(), d: Number.NaN },
      stamp: new Stamp(),
      big: Number.POSITIVE_INFINITY,
      text: 'x'.repeat(50),
    };
    const text = JSON.stringify(value);
    const parsed = new SessionStore({ minBytes: 0, now: () => 1 });
    const given = new SessionStore({ minBytes: 0, now: () => 1 });
    parsed.record('t', { q: 1 }, text);
    given.record('t', { q: 1 }, text, value);
    expect(given.response()).toEqual(parsed.response());
    expect(given.response()!.shape).toEqual({
      type: 'object',
      keys: [
        { key: 'rows', type: 'array', rows: 3 },
        { key: 'nested', type: 'object', keys: 3 },
        { key: 'stamp', type: 'string' },
        { key: 'big', type: 'null' },
        { key: 'text', type: 'string' },
      ],
    });
    // A value that is not an object or array (a string answer) is stored as its text.
    given.record('t', {}, JSON.stringify('[not json'), '[not json');
    expect(given.response()!.json).toBe(false);
  });

  test('evicts the oldest past the response count', () => {
    const s = new SessionStore({ maxResponses: 3, minBytes: 0 });
    for (let i = 0; i < 5; i++) s.record('t', { i }, `${i}`);
    expect(s.responses().map((r) => r.handle)).toEqual(['r3', 'r4', 'r5']);
    expect(s.storedBytes()).toBe(3);
  });

  test('evicts the oldest past the byte budget; a response alone over it is not kept', () => {
    const s = new SessionStore({ minBytes: 10, maxTotalBytes: 10_000 });
    expect(s.record('t', {}, blob(4000))).toBe('r1');
    expect(s.record('t', {}, blob(4000))).toBe('r2');
    expect(s.record('t', {}, blob(4000))).toBe('r3');
    expect(s.responses().map((r) => r.handle)).toEqual(['r2', 'r3']);
    expect(s.storedBytes()).toBe(8000);
    expect(s.record('t', {}, blob(10_001))).toBeUndefined();
    expect(s.responses().map((r) => r.handle)).toEqual(['r2', 'r3']);
    expect(s.record('t', {}, blob(10_000))).toBe('r4');
    expect(s.responses().map((r) => r.handle)).toEqual(['r4']);
    expect(s.storedBytes()).toBe(10_000);
  });

  test('JSON is stored pretty-printed (2 spaces) with its shape; the budget counts the rendering', () => {
    const s = new SessionStore({ minBytes: 0 });
    const text = '{"a":[1,2],"b":{"c":1},"d":null,"e":"x"}';
    s.record('t', undefined, text);
    const r = s.response()!;
    expect(r.json).toBe(true);
    expect(r.args).toBe('{}');
    expect(r.lines).toEqual(['{', '  "a": [', '    1,', '    2', '  ],', '  "b": {', '    "c": 1', '  },', '  "d": null,', '  "e": "x"', '}']);
    expect(r.shape).toEqual({
      type: 'object',
      keys: [
        { key: 'a', type: 'array', rows: 2 },
        { key: 'b', type: 'object', keys: 1 },
        { key: 'd', type: 'null' },
        { key: 'e', type: 'string' },
      ],
    });
    expect(r.bytes).toBe(text.length);
    expect(r.stored_bytes).toBe(r.lines.join('\n').length);
    expect(s.storedBytes()).toBe(r.stored_bytes);
    // Bracketed text that is not JSON stays as it was.
    s.record('t', {}, '[not json\nline 2\n');
    expect(s.response()).toMatchObject({ json: false, shape: { type: 'text' }, lines: ['[not json', 'line 2'] });
  });

  test("the re-cut tools' own answers are never recorded; long arguments are cut", () => {
    const s = new SessionStore({ minBytes: 0 });
    for (const tool of ['ctx_grep', 'ctx_slice', 'nav', 'feedback']) expect(s.record(tool, {}, blob(5000))).toBeUndefined();
    expect(s.record('t', { q: blob(300) }, 'x')).toBe('r1');
    expect(s.response()!.args).toBe(`{"q":"${blob(194)}…`);
  });

  test('the cursor back stack is bounded; back pops to the previous positions', () => {
    const s = new SessionStore({ maxBackStack: 3 });
    expect(s.cursor()).toBeUndefined();
    for (const id of ['a', 'b', 'c', 'd', 'e']) s.moveCursor(id);
    expect(s.cursor()).toBe('e');
    expect(s.backStack()).toEqual(['b', 'c', 'd']);
    expect(s.backCursor()).toBe('d');
    expect(s.backCursor()).toBe('c');
    expect(s.backCursor()).toBe('b');
    expect(s.backCursor()).toBeUndefined();
    expect(s.cursor()).toBe('b');
  });

  test('the feedback log is bounded and counts every entry', () => {
    let t = 100;
    const s = new SessionStore({ maxFeedback: 2, now: () => t++ });
    expect(s.addFeedback({ tool: 'a', rating: 'useful' })).toBe(1);
    expect(s.addFeedback({ tool: 'b', rating: 'wrong' })).toBe(2);
    expect(s.addFeedback({ tool: 'c', rating: 'not_useful', note: 'n' })).toBe(3);
    expect(s.feedback()).toEqual([
      { tool: 'b', rating: 'wrong', at: 101 },
      { tool: 'c', rating: 'not_useful', note: 'n', at: 102 },
    ]);
  });

  test('refuses nonsense bounds', () => {
    expect(() => new SessionStore({ maxResponses: 0 })).toThrow('SessionStore: maxResponses must be a positive integer, got 0');
    expect(() => new SessionStore({ maxTotalBytes: 1.5 })).toThrow(RangeError);
    expect(() => new SessionStore({ minBytes: -1 })).toThrow(RangeError);
  });
});

describe('session tools', () => {
  let engine: Engine;
  let root: string;
  let base: ToolContext;
  /** The summary of src/render.ts as compact JSON (3.5 KB): a realistic large answer. */
  let summaryText: string;

  /** A fresh session with its own store (clock pinned at 10 000 ms). */
  const session = (store = new SessionStore({ now: () => 10_000 })): { ctx: ToolContext; store: SessionStore } => ({
    ctx: { ...base, session: { store } as unknown as SessionSurface },
    store,
  });

  /** 150 lines `line N: even|odd` (over 2 KB). */
  const numbered = Array.from({ length: 150 }, (_, i) => `line ${i + 1}: ${(i + 1) % 2 === 0 ? 'even' : 'odd'}`).join('\n');

  const savedHome = process.env.GORTEX_HOME;
  afterAll(() => {
    if (savedHome === undefined) delete process.env.GORTEX_HOME;
    else process.env.GORTEX_HOME = savedHome;
  });

  beforeAll(async () => {
    // Feedback is kept in the gortex home: a private one, never the user's.
    process.env.GORTEX_HOME = tempHome();
    root = fixtureCopy('query/app-ts', 'sess-app');
    engine = new Engine({ home: tempHome(), threads: 2 });
    const report = await engine.indexRepo(root);
    expect(report.failures).toEqual([]);
    base = { engine, repo: root, root };
    summaryText = JSON.stringify(engine.query('get_file_summary', { path: 'src/render.ts' }, { repo: root }));
  });

  test('the family: names, categories, effects', () => {
    expect(TOOLS.map((t) => [t.name, t.category, t.effect])).toEqual([
      ['ctx_stats', 'read', 'read'],
      ['ctx_grep', 'read', 'read'],
      ['grep_results', 'read', 'read'],
      ['ctx_slice', 'read', 'read'],
      ['ctx_peek', 'read', 'read'],
      ['head_results', 'read', 'read'],
      ['nav', 'nav', 'session_write'],
      ['set_planning_mode', 'edit', 'session_write'],
      ['workflow', 'edit', 'session_write'],
      ['get_symbol_history', 'edit', 'read'],
      ['feedback', 'admin', 'session_write'],
    ]);
    expect(TOOLS.find((t) => t.name === 'feedback')!.description).toContain('move up (useful) or down (not useful, wrong) in search_symbols');
  });

  test('every tool but feedback refuses without an MCP session', async () => {
    const args: Record<string, Record<string, unknown>> = {
      ctx_stats: {},
      ctx_grep: { pattern: 'x' },
      grep_results: { pattern: 'x' },
      ctx_slice: { start_line: 1, end_line: 2 },
      ctx_peek: {},
      head_results: {},
      nav: { action: 'where' },
      set_planning_mode: { enabled: true },
      workflow: {},
      get_symbol_history: {},
    };
    // Feedback is durable (the sidecar): the CLI records and queries it without a session.
    for (const t of TOOLS.filter((t) => t.name !== 'feedback')) {
      expect(await refusal(base, t.name, args[t.name])).toEqual({ code: 'unavailable', message: 'this tool needs an MCP session' });
    }
    expect(await call(base, 'feedback', { action: 'query' })).toMatchObject({ scope: 'sess-app' });
  });

  describe('re-cutting', () => {
    let ctx: ToolContext;

    beforeAll(() => {
      const s = session();
      ctx = s.ctx;
      expect(s.store.record('get_file_summary', { path: 'src/render.ts' }, summaryText)).toBe('r1');
      expect(s.store.record('search_text', { query: 'line' }, numbered)).toBe('r2');
      expect(s.store.record('get_symbol', { id: 'main' }, '{"small":true}')).toBeUndefined();
    });

    test('an empty store says nothing is stored yet', async () => {
      const { ctx: empty } = session();
      expect(await refusal(empty, 'ctx_grep', { pattern: 'x' })).toEqual({
        code: 'not_found',
        message: 'no stored responses yet: only answers over 2048 bytes are kept',
      });
      expect(await call(empty, 'ctx_stats', {})).toMatchObject({ responses: [], count: 0, stored_bytes: 0, latest: null });
    });

    test('ctx_stats lists the ring', async () => {
      const stats = await call(ctx, 'ctx_stats', {});
      expect(stats.count).toBe(2);
      expect(stats.latest).toBe('r2');
      expect(stats.responses).toEqual([
        { handle: 'r1', tool: 'get_file_summary', args: '{"path":"src/render.ts"}', bytes: summaryText.length, stored_bytes: 4678, lines: 181, json: true, age_ms: 0 },
        { handle: 'r2', tool: 'search_text', args: '{"query":"line"}', bytes: 2066, stored_bytes: 2066, lines: 150, json: false, age_ms: 0 },
      ]);
      expect(stats.stored_bytes).toBe(4678 + 2066);
      // The rendering is exactly JSON.stringify's 2-space form.
      const pretty = JSON.stringify(JSON.parse(summaryText), null, 2);
      expect([pretty.split('\n').length, Buffer.byteLength(pretty)]).toEqual([181, 4678]);
      expect(stats.limits).toEqual({ max_responses: 16, min_bytes: 2048, max_total_bytes: 8 * 1024 * 1024 });
    });

    test('ctx_grep: literal search of the latest response, with a limit and context', async () => {
      const g = await call(ctx, 'ctx_grep', { pattern: 'line 1', limit: 3 });
      expect(g).toEqual({
        handle: 'r2',
        tool: 'search_text',
        total_lines: 150,
        matches: [
          { line: 1, text: 'line 1: odd' },
          { line: 10, text: 'line 10: even' },
          { line: 11, text: 'line 11: odd' },
        ],
        total: 62,
        truncated: true,
        block: '1:line 1: odd\n10:line 10: even\n11:line 11: odd',
      });
      const c = await call(ctx, 'grep_results', { pattern: 'line 14', context_lines: 1 });
      expect(c.total).toBe(11);
      expect(c.block.split('\n').slice(0, 8)).toEqual(['13-line 13: odd', '14:line 14: even', '15-line 15: odd', '--', '139-line 139: odd', '140:line 140: even', '141:line 141: odd', '142:line 142: even']);
    });

    test('ctx_grep: a regex over the pretty-printed JSON of an older response', async () => {
      const g = await call(ctx, 'ctx_grep', { handle: 'r1', pattern: '"qual_name": "Renderer\\.\\w+"', regex: true });
      expect(g.matches).toEqual([
        { line: 94, text: '        "qual_name": "Renderer.config",' },
        { line: 110, text: '        "qual_name": "Renderer.constructor",' },
        { line: 126, text: '        "qual_name": "Renderer.draw",' },
      ]);
      expect(g.total).toBe(3);
      expect(g.truncated).toBe(false);
      const pretty = JSON.stringify(JSON.parse(summaryText), null, 2).split('\n');
      expect(pretty.indexOf('        "qual_name": "Renderer.draw",') + 1).toBe(126);
      // The literal default does not interpret the pattern.
      expect((await call(ctx, 'ctx_grep', { handle: 'r1', pattern: 'Renderer\\.\\w+' })).total).toBe(0);
    });

    test('ctx_grep: case_sensitive false folds case for literals and regexes; inline flags work', async () => {
      expect((await call(ctx, 'ctx_grep', { pattern: 'LINE 14' })).total).toBe(0);
      const folded = await call(ctx, 'ctx_grep', { pattern: 'LINE 14', case_sensitive: false });
      expect([folded.total, folded.matches[0]]).toEqual([11, { line: 14, text: 'line 14: even' }]);
      expect((await call(ctx, 'ctx_grep', { pattern: '^LINE 1\\d: ODD$', regex: true })).total).toBe(0);
      const odd = await call(ctx, 'ctx_grep', { pattern: '^LINE 1\\d: ODD$', regex: true, case_sensitive: false });
      expect(odd.matches.map((m: { line: number }) => m.line)).toEqual([11, 13, 15, 17, 19]);
      expect((await call(ctx, 'ctx_grep', { pattern: '(?i)^LINE 1\\d: ODD$', regex: true })).total).toBe(5);
      // A literal stays literal whatever the case mode: `.` and `(` are not interpreted.
      expect((await call(ctx, 'ctx_grep', { pattern: 'LINE 1.', case_sensitive: false })).total).toBe(0);
      expect((await call(ctx, 'ctx_grep', { handle: 'r1', pattern: '"QUAL_NAME": "RENDERER.DRAW"', case_sensitive: false })).matches).toEqual([
        { line: 126, text: '        "qual_name": "Renderer.draw",' },
      ]);
    });

    test('ctx_grep: a backtracking-bomb regex is answered at once (Rust regex, not JavaScript RegExp)', async () => {
      // One stored line of 5 000 `a`s followed by `!`, one that ends in `a`s: JavaScript's RegExp
      // takes ~2^n steps for `(a+)+$` on the first (minutes at n = 33) and freezes the process.
      const { ctx: bomb, store } = session();
      const run = 'a'.repeat(5_000);
      expect(store.record('read_file', {}, `${run}!\nplain\nx${run}`)).toBe('r1');
      for (const name of ['ctx_grep', 'grep_results']) {
        const g = await call(bomb, name, { pattern: '(a+)+$', regex: true });
        expect([g.total, g.matches.map((m: { line: number }) => m.line)]).toEqual([1, [3]]);
        expect(g.matches[0].text).toBe(`x${'a'.repeat(499)}…`);
      }
      expect((await call(bomb, 'ctx_grep', { pattern: '(A+)+!', regex: true, case_sensitive: false })).total).toBe(1);
    });

    test('ctx_grep: bad input', async () => {
      const syntax = 'patterns use Rust regex syntax (https://docs.rs/regex/latest/regex/#syntax)';
      expect(await refusal(ctx, 'ctx_grep', { pattern: '(', regex: true })).toEqual({
        code: 'invalid_argument',
        message: `invalid regex "(": regex parse error:\n    (\n    ^\nerror: unclosed group; ${syntax}`,
      });
      // JavaScript-only syntax is refused by name, never half-understood.
      const lookbehind = await refusal(ctx, 'ctx_grep', { pattern: '(?<=line )1', regex: true });
      expect([lookbehind.code, lookbehind.message]).toEqual(['invalid_argument', expect.stringContaining('look-around, including look-ahead and look-behind, is not supported')]);
      // Short to write, too large once compiled: refused by the compiled size limit, with the fix.
      const huge = await refusal(ctx, 'ctx_grep', { pattern: '\\w{1000}{1000}', regex: true });
      expect(huge.code).toBe('invalid_argument');
      expect(huge.message).toMatch(/^invalid regex "\\\\w\{1000\}\{1000\}": Compiled regex exceeds size limit of 1048576 bytes \(repeat less, or use ASCII classes/);
      expect(huge.message.endsWith(syntax)).toBe(true);
      for (const regex of [true, false]) {
        expect(await refusal(ctx, 'ctx_grep', { pattern: 'a'.repeat(4097), regex })).toEqual({
          code: 'invalid_argument',
          message: 'pattern must be at most 4096 bytes, got 4097',
        });
      }
      expect((await call(ctx, 'ctx_grep', { pattern: 'a'.repeat(4096) })).total).toBe(0);
      expect(await refusal(ctx, 'ctx_grep', { handle: 'r9', pattern: 'x' })).toEqual({
        code: 'not_found',
        message: 'no stored response "r9"; stored: r1, r2 (older ones were evicted)',
      });
      expect((await refusal(ctx, 'ctx_grep', { pattern: '' })).code).toBe('invalid_argument');
      expect((await refusal(ctx, 'ctx_grep', { pattern: 'x', context_lines: 21 })).code).toBe('invalid_argument');
    });

    test('ctx_slice: a line range, clamped at the end; bad ranges refused', async () => {
      expect(await call(ctx, 'ctx_slice', { handle: 'r1', start_line: 1, end_line: 3 })).toEqual({
        handle: 'r1',
        tool: 'get_file_summary',
        start_line: 1,
        end_line: 3,
        total_lines: 181,
        text: '{\n  "counts": {\n    "by_kind": {\n',
        truncated: false,
      });
      expect(await call(ctx, 'ctx_slice', { start_line: 149, end_line: 500 })).toMatchObject({
        handle: 'r2',
        start_line: 149,
        end_line: 150,
        text: 'line 149: odd\nline 150: even\n',
      });
      expect(await refusal(ctx, 'ctx_slice', { start_line: 151, end_line: 160 })).toEqual({
        code: 'invalid_argument',
        message: 'start_line 151 is past the end of r2 (150 lines)',
      });
      expect(await refusal(ctx, 'ctx_slice', { start_line: 5, end_line: 4 })).toEqual({
        code: 'invalid_argument',
        message: 'end_line 4 is before start_line 5',
      });
      expect((await refusal(ctx, 'ctx_slice', { start_line: 0, end_line: 4 })).code).toBe('invalid_argument');
    });

    test('ctx_peek: the first bytes and the JSON shape', async () => {
      expect(await call(ctx, 'ctx_peek', { handle: 'r1', bytes: 26 })).toEqual({
        handle: 'r1',
        tool: 'get_file_summary',
        bytes: summaryText.length,
        stored_bytes: 4678,
        total_lines: 181,
        json: true,
        shape: {
          type: 'object',
          keys: [
            { key: 'counts', type: 'object', keys: 5 },
            { key: 'file', type: 'object', keys: 9 },
            { key: 'imports', type: 'array', rows: 3 },
            { key: 'symbols', type: 'array', rows: 7 },
          ],
        },
        head: '{\n  "counts": {\n    "by_ki',
        truncated: true,
      });
      const text = await call(ctx, 'ctx_peek', {});
      expect(text).toMatchObject({ handle: 'r2', json: false, shape: { type: 'text' }, truncated: true });
      expect(text.head.length).toBe(1024);
      expect((await refusal(ctx, 'ctx_peek', { bytes: 0 })).code).toBe('invalid_argument');
    });

    test('ctx_peek cuts on a character boundary', async () => {
      const { ctx: own, store } = session();
      store.record('read_file', {}, 'é'.repeat(1500));
      const p = await call(own, 'ctx_peek', { bytes: 5 });
      expect([p.head, p.bytes, p.truncated]).toEqual(['éé', 3000, true]);
    });

    test('head_results: the first lines', async () => {
      expect(await call(ctx, 'head_results', { lines: 2 })).toEqual({
        handle: 'r2',
        tool: 'search_text',
        start_line: 1,
        end_line: 2,
        total_lines: 150,
        text: 'line 1: odd\nline 2: even\n',
        truncated: true,
      });
      expect((await call(ctx, 'head_results', { handle: 'r2', lines: 1000 })).end_line).toBe(150);
      expect((await call(ctx, 'head_results', {})).end_line).toBe(20);
      expect((await refusal(ctx, 'head_results', { handle: 'r0' })).code).toBe('not_found');
    });
  });

  describe('nav', () => {
    const id = (rel: string): string => `sess-app/${rel}`;
    /** `[index, qualified]` of a preview list. */
    const names = (list: { rows: { index: number; qualified: string }[] }): [number, string][] => list.rows.map((r) => [r.index, r.qualified]);

    test('walks the graph and previews every position', async () => {
      const { ctx, store } = session();
      expect(await refusal(ctx, 'nav', { action: 'where' })).toEqual({
        code: 'invalid_argument',
        message: 'no cursor yet: call nav with action "goto" and an id first',
      });

      const at = await call(ctx, 'nav', { action: 'goto', id: 'main' });
      expect(at.position.id).toBe(id('src/render.ts::main'));
      expect(at.previous).toBeUndefined();
      expect(at.back_depth).toBe(0);
      expect(at.adjacency.callers).toEqual({ total: 0, rows: [] });
      expect(at.adjacency.callees.total).toBe(5);
      expect(at.adjacency.callees.rows.map((r: { qualified: string; edge: string }) => [r.qualified, r.edge])).toEqual([
        ['Renderer', 'instantiates'],
        ['Renderer.draw', 'calls'],
        ['Circle', 'instantiates'],
        ['applyConfig', 'calls'],
        ['decorate', 'calls'],
      ]);
      expect(at.adjacency.callees.rows[3]).toEqual({
        index: 3,
        id: id('src/config.ts::applyConfig'),
        name: 'applyConfig',
        qualified: 'applyConfig',
        kind: 'function',
        path: 'src/config.ts',
        line: 14,
        edge: 'calls',
      });
      expect(names(at.adjacency.siblings)).toEqual([
        [0, 'Renderer'],
        [1, 'summarize'],
        [2, 'decorate'],
      ]);

      const draw = await call(ctx, 'nav', { action: 'into', index: 1 });
      expect(draw.position.qual_name).toBe('Renderer.draw');
      expect(draw.owner.id).toBe(id('src/render.ts::Renderer'));
      expect(draw.previous).toBe(id('src/render.ts::main'));
      expect(draw.back_depth).toBe(1);
      expect(names(draw.adjacency.callers)).toEqual([[0, 'main']]);
      expect(names(draw.adjacency.callees)).toEqual([
        [0, 'formatLabel'],
        [1, 'summarize'],
      ]);
      expect(names(draw.adjacency.siblings)).toEqual([
        [0, 'Renderer.config'],
        [1, 'Renderer.constructor'],
      ]);

      const summarize = await call(ctx, 'nav', { action: 'into', index: 1 });
      expect(summarize.position.qual_name).toBe('summarize');
      expect(names(summarize.adjacency.callers)).toEqual([
        [0, 'render.summarizes'],
        [1, 'Renderer.draw'],
      ]);
      const tester = await call(ctx, 'nav', { action: 'up' });
      expect(tester.position.id).toBe(id('src/render.test.ts::render.summarizes'));
      const sib = await call(ctx, 'nav', { action: 'back' });
      expect(sib.position.qual_name).toBe('summarize');
      expect(sib.previous).toBe(id('src/render.test.ts::render.summarizes'));
      const ctor = await call(ctx, 'nav', { action: 'back' }).then(() => call(ctx, 'nav', { action: 'sibling', index: 1 }));
      expect(ctor.position.qual_name).toBe('Renderer.constructor');
      expect(ctor.adjacency.callees.rows.map((r: { qualified: string }) => r.qualified)).toEqual(['loadConfig']);
      expect(store.backStack()).toEqual([id('src/render.ts::main'), id('src/render.ts::Renderer.draw')]);

      const where = await call(ctx, 'nav', { action: 'where' });
      expect(where.position.qual_name).toBe('Renderer.constructor');
      expect(where.previous).toBeUndefined();
      expect(where.back_depth).toBe(2);

      const read = await call(ctx, 'nav', { action: 'read' });
      expect(read.source).toEqual({
        path: 'src/render.ts',
        start_line: 7,
        end_line: 9,
        text: '  constructor() {\n    this.config = loadConfig();\n  }\n',
        truncated: false,
      });
      expect(store.cursor()).toBe(id('src/render.ts::Renderer.constructor'));
    });

    test('refused moves leave the cursor where it was', async () => {
      const { ctx, store } = session();
      expect(await refusal(ctx, 'nav', { action: 'goto' })).toEqual({ code: 'invalid_argument', message: 'action "goto" needs an id' });
      expect((await refusal(ctx, 'nav', { action: 'goto', id: 'noSuchSymbolAnywhere' })).code).toBe('not_found');
      expect(store.cursor()).toBeUndefined();
      await call(ctx, 'nav', { action: 'goto', id: 'unusedHelper' });
      expect(await refusal(ctx, 'nav', { action: 'back' })).toEqual({
        code: 'invalid_argument',
        message: `nothing to go back to: the cursor is at its first position (${id('src/config.ts::unusedHelper')})`,
      });
      expect(await refusal(ctx, 'nav', { action: 'up' })).toEqual({ code: 'not_found', message: `${id('src/config.ts::unusedHelper')} has no callers` });
      expect(await refusal(ctx, 'nav', { action: 'sibling', index: 5 })).toEqual({
        code: 'invalid_argument',
        message: `index 5 is out of range: ${id('src/config.ts::unusedHelper')} has 5 siblings (0–4)`,
      });
      expect(await refusal(ctx, 'nav', { action: 'where', id: 'main' })).toEqual({
        code: 'invalid_argument',
        message: 'id is only taken by action "goto" (got action "where")',
      });
      expect(await refusal(ctx, 'nav', { action: 'read', index: 0 })).toEqual({
        code: 'invalid_argument',
        message: 'index is only taken by actions into, up and sibling (got action "read")',
      });
      const bad = await refusal(ctx, 'nav', { action: 'jump' });
      expect(bad.code).toBe('invalid_argument');
      expect(bad.message).toBe('nav: unknown action "jump"; expected one of: goto, into, up, sibling, back, where, read');
      expect((await refusal(ctx, 'nav', { action: 'into', index: -1 })).code).toBe('invalid_argument');
      expect(store.cursor()).toBe(id('src/config.ts::unusedHelper'));
      expect(store.backStack()).toEqual([]);
    });
  });

  test('feedback on symbol ids re-ranks search_symbols for every later session of the repository', async () => {
    const search = async (): Promise<{ results: { name: string; feedback?: unknown }[] }> =>
      (await callTool(base, 'search_symbols', { query: 'format' }, ALL_TOOLS)) as { results: { name: string; feedback?: unknown }[] };
    const names = async (): Promise<string[]> => (await search()).results.map((r) => r.name);
    const before = await names();
    expect(before[0]).toBe('formatLabel');
    expect(before).toContain('padLabel');
    const { ctx } = session();
    const padLabel = 'sess-app/src/format.ts::padLabel';
    const rated = (await call(ctx, 'feedback', { tool: 'search_symbols', rating: 'useful', ids: [padLabel, 'sess-app/src/nope.ts::ghost'] })) as Record<string, unknown>;
    expect(rated).toMatchObject({ influences_ranking: true, ranked: [{ id: padLabel, useful: 1, not_useful: 0, wrong: 0, delta: 1.5 }], unknown_ids: ['sess-app/src/nope.ts::ghost'] });
    await call(session().ctx, 'feedback', { tool: 'search_symbols', rating: 'useful', ids: [padLabel] });
    // A different session (no session at all, here) sees it: the board is the repository's.
    const after = await search();
    expect(after.results[0]).toMatchObject({ name: 'padLabel', feedback: { useful: 2, not_useful: 0, wrong: 0, delta: 3 } });
    expect(after.results.map((r) => r.name).sort()).toEqual([...before].sort());
    await call(ctx, 'feedback', { tool: 'search_symbols', rating: 'wrong', ids: [padLabel] });
    expect((await names())[0]).toBe('formatLabel');
    // Kept in the sidecar, for every process of the machine.
    expect(sidecarAt().feedbackTallies('sess-app', [padLabel])[padLabel]).toMatchObject({ useful: 2, not_useful: 0, wrong: 1, missing: 0 });
  });

  test('a feedback board from before the sidecar is imported once and kept as .imported', async () => {
    const home = process.env.GORTEX_HOME!;
    const other = 'sess-app/src/format.ts::formatLabel';
    // A board another home wrote; this repository's name, never seen by the sidecar of this home.
    const legacyHome = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'gortex-legacy-'));
    fs.mkdirSync(path.join(legacyHome, 'feedback'));
    const file = path.join(legacyHome, 'feedback', 'sess-app.json');
    fs.writeFileSync(file, JSON.stringify({ repo: 'sess-app', ids: { [other]: { useful: 0, not_useful: 0, wrong: 2, last_at: 1 } } }));
    process.env.GORTEX_HOME = legacyHome;
    try {
      const results = ((await callTool(base, 'search_symbols', { query: 'format' }, ALL_TOOLS)) as { results: { id: string; feedback?: unknown }[] }).results;
      expect(results.find((r) => r.id === other)?.feedback).toMatchObject({ wrong: 2 });
      expect(fs.existsSync(file)).toBe(false);
      expect(fs.existsSync(`${file}.imported`)).toBe(true);
      // Imported once: a second search does not add the board again.
      await callTool(base, 'search_symbols', { query: 'format' }, ALL_TOOLS);
      expect(sidecarAt(legacyHome).feedbackTallies('sess-app', [other])[other]).toMatchObject({ wrong: 2 });
    } finally {
      process.env.GORTEX_HOME = home;
    }
  });

  test('feedback is logged per session and counted', async () => {
    const { ctx, store } = session();
    expect(await call(ctx, 'feedback', { tool: 'get_callers', rating: 'useful', ids: ['main'] })).toEqual({
      recorded: 1,
      kept: 1,
      by_rating: { useful: 1 },
      influences_ranking: false,
      unknown_ids: ['main'],
    });
    expect(await call(ctx, 'feedback', { tool: 'explore', rating: 'wrong', note: 'missed summarize' })).toEqual({
      recorded: 2,
      kept: 2,
      by_rating: { useful: 1, wrong: 1 },
      influences_ranking: false,
    });
    expect(store.feedback()).toEqual([
      { tool: 'get_callers', rating: 'useful', ids: ['main'], at: 10_000 },
      { tool: 'explore', rating: 'wrong', note: 'missed summarize', at: 10_000 },
    ]);
    expect((await refusal(ctx, 'feedback', { tool: 'x', rating: 'great' })).code).toBe('invalid_argument');
    expect((await refusal(ctx, 'feedback', { tool: '', rating: 'useful' })).code).toBe('invalid_argument');
    expect(store.feedback()).toHaveLength(2);
  });
});
