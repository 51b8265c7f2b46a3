/**
 * Documents, configuration and components over the real `gortex mcp` stdio server, on a copy of
 * `test/fixtures/resolver/polyglot` (Vue and Svelte components, proto, SQL, a Dockerfile,
 * package.json, Markdown, plain text): every text file is searchable, sections are found by the
 * docs corpus, manifests meet code at module nodes, templates render components.
 */
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

describe('documents and components over gortex mcp (stdio)', () => {
  const root = fixtureCopy('resolver/polyglot', 'docs-poly');
  const id = (rest: string): string => `docs-poly/${rest}`;
  let client: Client;

  beforeAll(async () => {
    // A binary file is never read; a text file with a NUL byte is skipped as binary.
    fs.writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]));
    fs.writeFileSync(path.join(root, 'data.txt'), Buffer.from('text\0more'));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    delete env.NODE_ENV;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--embedded', '--repo', root, '--tools', 'full'],
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'gortex-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });

  const ok = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const r = (await client.callTool({ name, arguments: args })) as TextResult;
    if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
    return JSON.parse(r.content[0]!.text);
  };

  test('every text file is indexed and searchable; binaries are not', async () => {
    const text = await ok('search_text', { query: 'order pipeline' });
    expect(text.hits.map((h: any) => `${h.path}:${h.line}`)).toEqual(['notes.txt:1']);
    const section = await ok('search_text', { query: 'stored in' });
    expect(section.hits.map((h: any) => [h.path, h.line, h.symbol_id])).toEqual([['docs/guide.md', 7, id('docs/guide.md::shop-guide.orders')]]);
    const files = await ok('find_files', { query: 'logo' });
    expect(files.results).toEqual([]);
    const health = await ok('index_health', {});
    expect(health.skipped.by_reason).toEqual({ binary: 1 });
    expect(Object.keys(health.files.by_language).sort()).toEqual(['dockerfile', 'javascript', 'json', 'markdown', 'proto', 'sql', 'svelte', 'text', 'typescript', 'vue']);
  });

  test('Markdown sections: the docs corpus, nesting and first paragraphs', async () => {
    const docs = await ok('search_symbols', { query: 'orders', corpus: 'docs' });
    expect(docs.results.map((r: any) => r.id)).toEqual([id('docs/guide.md::shop-guide.orders')]);
    const code = await ok('search_symbols', { query: 'orders' });
    expect(code.results.map((r: any) => r.id)).not.toContain(id('docs/guide.md::shop-guide.orders'));
    expect(code.results.map((r: any) => r.id)).toContain(id('db/schema.sql::orders'));
    const summary = await ok('get_file_summary', { path: 'docs/guide.md' });
    expect(summary.symbols.map((s: any) => [s.depth, s.symbol.kind, s.symbol.signature])).toEqual([
      [0, 'doc', '# Shop guide'],
      [1, 'doc', '## Orders'],
    ]);
    const symbol = await ok('get_symbol', { id: id('docs/guide.md::shop-guide') });
    expect(JSON.stringify(symbol)).toContain('How the shop fits together.');
  });

  test('a manifest and the code importing a package meet at one module node', async () => {
    const usages = await ok('find_usages', { id: 'external::axios' });
    // A row's `from` is the using node's id; the node itself is in `nodes`.
    const users = new Map(usages.nodes.map((n: any) => [n.id, n]));
    const from = usages.usages.map((u: any) => `${(users.get(u.from) as any)?.file_path ?? u.path}`).sort();
    expect(from).toEqual(expect.arrayContaining(['web/package.json', 'web/src/api.ts']));
  });

  test('components: templates render components; a Vue import binds the component', async () => {
    const callers = await ok('get_callers', { id: id('web/src/components/UserCard.vue::UserCard') });
    expect(callers.callers.map((c: any) => c.caller.id)).toContain(id('web/src/App.vue::App'));
    const svelte = await ok('get_callers', { id: id('web/src/api.ts::fetchUser') });
    expect(svelte.callers.map((c: any) => c.caller.id)).toEqual(
      expect.arrayContaining([id('web/src/components/CounterBadge.svelte::name'), id('web/src/components/UserCard.vue::loadName')]),
    );
  });

  test('schemas: proto RPC types, SQL foreign keys, Dockerfile stages', async () => {
    const rpc = await ok('get_dependencies', { id: id('proto/shop/v1/order.proto::Orders.GetOrder') });
    expect(rpc.nodes.map((d: any) => d.id)).toEqual(
      expect.arrayContaining([id('proto/shop/v1/order.proto::Order'), id('proto/shop/v1/order.proto::GetOrderRequest')]),
    );
    // The foreign key is structural; the view in another file names the table (name-only tier).
    const users = await ok('find_usages', { id: id('db/schema.sql::users'), min_tier: 'text_matched' });
    expect(users.usages.length).toBe(2);
    const stage = await ok('find_usages', { id: id('Dockerfile::web') });
    expect(stage.usages.length).toBe(1);
    const dead = await ok('analyze', { kind: 'dead_code', include_exported: true, limit: 200 });
    expect(dead.dead.every((d: any) => typeof d.symbol.file_path === 'string' && d.symbol.file_path !== '')).toBe(true);
    expect(dead.dead.map((d: any) => d.symbol.file_path).filter((p: string) => /\.(sql|proto|md)$|Dockerfile|package\.json/.test(p))).toEqual([]);
  });
});
