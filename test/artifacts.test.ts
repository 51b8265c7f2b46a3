/**
 * Context artifacts through `gortex mcp` over stdio (and compact `search.artifacts` /
 * `read.artifact`): entries of `.gortex.yaml` `artifacts:` (files and globs, indexed or not) ranked
 * by a query's words with their matching lines, one artifact with its content and the graph
 * symbols it names, and configuration mistakes named with their file and entry.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { runCli, unwrapCliError } from './helpers/cli';
import { gitRepo } from './helpers/repo';

const CONFIG = `artifacts:
  - id: db-schema
    path: db/schema.sql
    kind: schema
    description: The Postgres schema of orders and customers
  - path: docs/adr/*.md
    kind: adr
  - path: api/openapi.yaml
    kind: api
  - path: infra/missing.tf
    kind: infra
`;

const FILES = {
  '.gortex.yaml': CONFIG,
  'db/schema.sql': 'CREATE TABLE customers (id serial primary key, email text);\nCREATE TABLE orders (\n  id serial primary key,\n  customer_id int references customers(id)\n);\n',
  'docs/adr/0001-use-postgres.md': '# Use Postgres\n\nOrders are stored in Postgres; see placeOrder.\n',
  'docs/adr/0002-queues.md': '# Queues\n\nEmails go through a queue.\n',
  'api/openapi.yaml': 'openapi: 3.0.0\npaths:\n  /orders:\n    post:\n      operationId: placeOrder\n',
  'src/orders.ts': 'export function placeOrder(customerId: number): number {\n  return customerId;\n}\n',
};

describe('context artifacts over MCP', () => {
  const root = gitRepo('shop', FILES);
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('search_artifacts ranks registered files by the query words, with their lines', async () => {
    const r = await okJson(client, 'search_artifacts', { query: 'orders postgres' });
    expect(r.results.map((x: any) => x.id)).toEqual(['db-schema', 'docs-adr-0001-use-postgres', 'api-openapi']);
    expect(r.results[0]).toMatchObject({ kind: 'schema', matched: ['orders', 'postgres'], snippets: [expect.objectContaining({ line: 2, text: 'CREATE TABLE orders (' })] });
    expect(r.artifacts).toBe(4);
    expect(r.unmatched_entries).toEqual([expect.stringMatching(/artifacts\[3\]: infra\/missing\.tf$/)]);
    const adrs = await okJson(client, 'search_artifacts', { query: 'queue', kind: 'adr' });
    expect(adrs.results.map((x: any) => x.path)).toEqual(['docs/adr/0002-queues.md']);
  });

  it('get_artifact returns the content and the symbols it names; compact read.artifact too', async () => {
    const a = await okJson(client, 'get_artifact', { id: 'api-openapi' });
    expect(a).toMatchObject({ kind: 'api', path: 'api/openapi.yaml', content: expect.stringContaining('operationId: placeOrder') });
    // The path names the orders table of the schema; the operation names the function.
    expect(a.references).toEqual([
      { name: 'orders', ids: ['shop/db/schema.sql::orders'] },
      { name: 'placeOrder', ids: ['shop/src/orders.ts::placeOrder'] },
    ]);
    const cut = await okJson(client, 'get_artifact', { id: 'db/schema.sql', max_bytes: 256 });
    expect(cut.id).toBe('db-schema');
    const compact = await startStdio(root, 'compact');
    try {
      const viaRead = await okJson(compact, 'read', { operation: 'artifact', target: { symbol: 'db-schema' } });
      expect(viaRead.content).toContain('CREATE TABLE orders');
      const viaSearch = await okJson(compact, 'search', { operation: 'artifacts', query: 'queue' });
      expect(viaSearch.results[0].id).toBe('docs-adr-0002-queues');
    } finally {
      await compact.close();
    }
  });

  it('unknown ids, bad entries and no registration are refused with what to fix', async () => {
    const missing = await callJson(client, 'get_artifact', { id: 'nope' });
    expect(missing.text).toMatch(/^not_found: no artifact "nope"; registered: db-schema, /);
    const bad = gitRepo('badcfg', { '.gortex.yaml': 'artifacts:\n  - path: ../outside.sql\n    kind: schema\n', 'a.ts': 'export const a = 1;\n' });
    const none = gitRepo('nocfg', { 'a.ts': 'export const a = 1;\n' });
    // A broken configuration stops gortex before it serves anything, naming the entry.
    const refused = runCli(['call', 'search_artifacts', '--repo', bad, '--embedded', '--arg', 'query=x1']);
    expect(refused.status).not.toBe(0);
    expect(unwrapCliError(refused.stderr)).toMatch(/artifacts\[0\]\.path "\.\.\/outside\.sql" must stay inside the repository/);
    const c2 = await startStdio(none, 'full');
    try {
      expect((await callJson(c2, 'search_artifacts', { query: 'x1' })).text).toMatch(/^not_found: no artifacts are registered: list them in \.gortex\.yaml/);
    } finally {
      await c2.close();
    }
  });
});
