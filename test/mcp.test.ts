/** `gortex mcp` over stdio with the SDK's own client, on a temp copy of a fixture repository. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PACKAGE_ROOT } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

describe('gortex mcp (stdio, embedded)', () => {
  const root = fixtureCopy('query/app-ts', 'mcpapp');
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    delete env.NODE_ENV;
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', root],
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'gortex-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<TextResult> =>
    (await client.callTool({ name, arguments: args })) as TextResult;
  const ok = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]!.text);
  };

  test('lists every registry tool with a JSON Schema and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_symbols', 'winnow_symbols', 'search_text', 'find_files', 'find_declaration',
      'get_symbol', 'get_file_summary', 'get_dependencies', 'get_dependents', 'get_callers', 'get_call_chain',
      'find_usages', 'find_implementations', 'find_overrides', 'get_class_hierarchy', 'get_cluster',
      'walk_graph', 'graph_query', 'trace_path', 'find_import_path', 'graph_stats',
      'read_file', 'get_symbol_source',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.description!.length).toBeGreaterThan(20);
    }
    const callers = tools.find((t) => t.name === 'get_callers')!;
    expect(callers.inputSchema.required).toEqual(['id']);
  });

  test('every tool answers with real data', async () => {
    const id = 'mcpapp/src/render.ts::summarize';
    expect((await ok('search_symbols', { query: 'summarize' })).results[0].id).toBe(id);
    expect((await ok('winnow_symbols', { kind: 'class' })).results.map((r: any) => r.qualified)).toEqual(
      expect.arrayContaining(['Circle', 'Square', 'Cube', 'Renderer']),
    );
    expect((await ok('search_text', { query: 'formatLabel(summarize' })).hits[0]).toMatchObject({ path: 'src/render.ts', symbol_name: 'draw' });
    expect((await ok('find_files', { query: 'shapes' })).results[0].path).toBe('src/shapes.ts');
    expect((await ok('find_declaration', { query: 'summarize(' })).declarations[0].node.id).toBe(id);
    expect((await ok('get_symbol', { id: 'summarize' })).symbol.id).toBe(id);
    expect((await ok('get_file_summary', { path: 'src/render.ts' })).symbols.length).toBeGreaterThan(3);
    expect((await ok('get_dependencies', { id: 'src/render.ts' })).mode).toBe('file');
    expect((await ok('get_dependents', { id })).dependents.map((d: any) => d.node.qualified)).toContain('Renderer.draw');
    expect((await ok('get_callers', { id })).callers.map((c: any) => c.caller.qualified)).toContain('Renderer.draw');
    expect((await ok('get_call_chain', { id: 'main', depth: 1 })).calls.length).toBeGreaterThan(2);
    expect((await ok('find_usages', { id: 'Shape', context: 'parameter_type' })).by_context).toHaveProperty('parameter_type');
    expect((await ok('find_implementations', { id: 'Shape' })).implementations.map((i: any) => i.node.qualified).sort()).toEqual(['Circle', 'Cube', 'Square']);
    expect((await ok('find_overrides', { id: 'Cube.name', direction: 'parents' })).parents.map((p: any) => p.method.qualified)).toContain('Square.name');
    expect((await ok('get_class_hierarchy', { id: 'Square', direction: 'down' })).nodes.map((n: any) => n.node.qualified)).toContain('Cube');
    expect((await ok('get_cluster', { id })).nodes.length).toBeGreaterThan(1);
    expect((await ok('walk_graph', { id: 'main', max_depth: 2 })).nodes[0].id).toBe('mcpapp/src/render.ts::main');
    expect((await ok('graph_query', { query: 'nodes kind=interface' })).nodes.map((n: any) => n.qualified).sort()).toEqual(['Shape', 'Solid']);
    expect((await ok('trace_path', { from: 'main', to: 'formatLabel' })).paths.length).toBeGreaterThan(0);
    expect((await ok('find_import_path', { from: 'src/render.ts', to: 'src/shapes.ts' })).path).toEqual(['src/render.ts', 'src/shapes.ts']);
    const stats = await ok('graph_stats', {});
    expect(stats.nodes).toBeGreaterThan(20);
    expect(stats.nodes_by_kind.method).toBeGreaterThan(5);
    expect((await ok('read_file', { path: 'src/shapes.ts', start_line: 1, end_line: 2 })).text).toBe('/** Something with an area. */\nexport interface Shape {\n');
    const source = await ok('get_symbol_source', { id: 'Circle.area' });
    expect(source.text).toContain('return 3 * this.r * this.r;');
  });

  test('bad calls are tool errors and the session keeps serving', async () => {
    const wrongType = await call('get_callers', { id: 'summarize', limit: 'ten' });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.content[0]!.text).toMatch(/^invalid_argument: get_callers: limit: /);
    const unknownKey = await call('get_callers', { id: 'summarize', depht: 2 });
    expect(unknownKey.content[0]!.text).toMatch(/depht/);
    const missing = await call('get_callers', {});
    expect(missing.content[0]!.text).toMatch(/^invalid_argument: get_callers: id: /);
    const unknownTool = await call('get_caller', { id: 'x' });
    expect(unknownTool.content[0]!.text).toMatch(/unknown tool "get_caller"/);
    const ambiguous = await call('get_callers', { id: 'area' });
    expect(ambiguous.content[0]!.text).toMatch(/^ambiguous: /);
    const outside = await call('read_file', { path: '../../../etc/passwd' });
    expect(outside.content[0]!.text).toMatch(/outside the repository/);
    const regex = await call('search_text', { query: 'a(', regexp: true });
    expect(regex.content[0]!.text).toMatch(/^invalid_argument: /);
    expect((await ok('get_symbol', { id: 'summarize' })).symbol.name).toBe('summarize');
  });

  test('edits on disk are indexed while the session runs', async () => {
    fs.writeFileSync(path.join(root, 'src/fresh.ts'), 'export function freshlyWritten(): number {\n  return 42;\n}\n');
    let found: any[] = [];
    for (let attempt = 0; attempt < 50 && found.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = (await ok('search_symbols', { query: 'freshlyWritten' })).results.filter((r: any) => r.name === 'freshlyWritten');
    }
    expect(found.map((r) => r.id)).toEqual(['mcpapp/src/fresh.ts::freshlyWritten']);
  });
});
