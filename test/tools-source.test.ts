/** `read_file` / `get_symbol_source` shaping: body compression and salient-line truncation. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_TOOLS } from '../ts/tools/index';
import { fixtureCopy } from './helpers/repo';
import { openToolContext, toolCaller } from './helpers/tools';
import type { ToolContext } from '../ts/workspace/context';

const { call, refusal } = toolCaller(ALL_TOOLS);

describe('get_symbol_source shaping', () => {
  let ts: ToolContext;
  let py: ToolContext;
  beforeAll(async () => {
    ts = await openToolContext(fixtureCopy('query/app-ts', 'src-ts'));
    py = await openToolContext(fixtureCopy('query/app-py', 'src-py'));
  });

  test('compress_bodies stubs methods to their signatures and keeps fields', async () => {
    const r = await call(ts, 'get_symbol_source', { id: 'Square', compress_bodies: true });
    expect(r.source).toBe(
      'export class Square implements Shape {\n  side: number = 1;\n  area(): number { … }\n  name(): string { … }\n}\n',
    );
    expect(r.compressed).toBe(true);
    const full = await call(ts, 'get_symbol_source', { id: 'Square' });
    expect(full.source).toContain('return this.side * this.side;');
    // Saved against reading the whole file, at four bytes a token; stubbing the bodies saves more.
    const file = fs.readFileSync(path.join(ts.root, full.path));
    expect(full.tokens_saved).toBe(Math.round((file.length - Buffer.byteLength(full.source)) / 4));
    expect(r.tokens_saved).toBe(Math.round((file.length - Buffer.byteLength(r.source)) / 4));
    expect(r.tokens_saved).toBeGreaterThan(full.tokens_saved + 5);
  });

  test('Python bodies become an ellipsis under the signature', async () => {
    const r = await call(py, 'get_symbol_source', { id: 'MemoryStore', compress_bodies: true });
    expect(r.source).toBe(
      'class MemoryStore(Store):\n    def __init__(self) -> None:\n        ...\n\n    def save(self, item: str) -> None:\n        ...\n',
    );
  });

  test('max_lines keeps the first and last lines and the most telling ones, marking gaps', async () => {
    const r = await call(ts, 'get_symbol_source', { id: 'Renderer', max_lines: 6 });
    expect(r.source).toBe(
      'export class Renderer {\n  … 4 lines omitted …\n  draw(shape: Shape): string {\n    return formatLabel(summarize(shape));\n  }\n}\n',
    );
    expect(r.lines_omitted).toBe(4);
    const short = await call(ts, 'get_symbol_source', { id: 'summarize', max_lines: 50 });
    expect(short.lines_omitted).toBeUndefined();
    const whole = await call(ts, 'get_symbol_source', { id: 'summarize' });
    expect(short.tokens_saved).toBe(whole.tokens_saved);
  });

  test('bad shaping arguments are refused by name', async () => {
    expect((await refusal(ts, 'get_symbol_source', { id: 'Square', max_lines: 2 })).message).toMatch(/max_lines/);
    expect((await refusal(ts, 'get_symbol_source', { id: 'Square', compress_bodies: 'yes' })).message).toMatch(/compress_bodies/);
  });

  test('get_editing_context honours compress_bodies and fidelity_globs', async () => {
    const compressed = await call(ts, 'get_editing_context', { id: 'Square', compress_bodies: true });
    expect(compressed.source_fidelity).toBe('compress');
    expect(compressed.source.text).toContain('area(): number { … }');
    const omitted = await call(ts, 'get_editing_context', { id: 'Square', fidelity_globs: 'src/shapes.ts:omit' });
    expect(omitted.source).toBeUndefined();
    expect(omitted.source_fidelity).toBe('omit');
    const all = await call(ts, 'get_editing_context', { id: 'summarize' });
    const noTests = await call(ts, 'get_editing_context', { id: 'summarize', fidelity_globs: '*.test.ts:omit,src/**:full' });
    expect(all.callers.map((c: any) => c.path)).toContain('src/render.test.ts');
    expect(noTests.callers.map((c: any) => c.path)).not.toContain('src/render.test.ts');
    expect(noTests.fidelity_omitted_rows).toBe(all.callers.length - noTests.callers.length);
    expect(noTests.source.text).toContain('return s.name() + s.area();');
    expect((await refusal(ts, 'get_editing_context', { id: 'summarize', fidelity_globs: 'src/**:tiny' })).message).toMatch(
      /fidelity_globs entry "src\/\*\*:tiny" must be glob:tier/,
    );
  });
});

describe('read_file over a file of many short lines', () => {
  test('a 1 MiB slice of 250,000 lines is read whole, byte-exact, and cut at the budget', async () => {
    const root = fixtureCopy('query/app-ts', 'src-many-lines');
    // 250,000 lines of 4 bytes: the byte count used to be re-measured over the whole text per line,
    // which made this one call run for minutes.
    fs.writeFileSync(path.join(root, 'many.txt'), 'abc\n'.repeat(250_000));
    const ctx = await openToolContext(root);
    const whole = await call(ctx, 'read_file', { path: 'many.txt', max_bytes: 1024 * 1024 });
    expect(whole).toMatchObject({ start_line: 1, end_line: 250_000, total_lines: 250_000, truncated: false });
    expect(whole.text).toBe('abc\n'.repeat(250_000));
    const cut = await call(ctx, 'read_file', { path: 'many.txt', max_bytes: 10 });
    expect(cut).toMatchObject({ end_line: 2, truncated: true, text: 'abc\nabc\n' });
  });
});
