/**
 * `search_symbols` with model expansion over the real `gortex mcp` stdio server and a local
 * chat-completions server: `expand` adds the hits of the model's words after the query's own,
 * `vocab_anchored` keeps only the words the repository's names use, and without a model both are
 * refused with how to configure one.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startStdio } from './helpers/mcp';
import { gitRepo } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

/** A model answering every expansion prompt with the same words; records the queries asked. */
function modelServer(): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const request = JSON.parse(body);
      asked.push(request.messages[1].content);
      const answer = { terms: ['charge', 'invoice', 'zzqxWidget', 'payment', 'not an identifier', 'Charge'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(answer) } }] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1`, asked, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

describe('search_symbols expansion through a configured model', () => {
  const root = gitRepo('billing', {
    'src/pay.ts': 'export function payment(total: number): number {\n  return total;\n}\n\nexport function chargeCard(amount: number): number {\n  return payment(amount);\n}\n',
    'src/bill.ts': 'export function createInvoice(id: string): string {\n  return id;\n}\n',
    'src/zz.ts': 'export function zzqx(): number {\n  return 1;\n}\n',
  });
  let model: Awaited<ReturnType<typeof modelServer>>;
  let client: Client;
  let plain: Client;
  beforeAll(async () => {
    model = await modelServer();
    client = await startStdio(root, 'full', { GORTEX_LLM_ENDPOINT: model.url, GORTEX_LLM_MODEL: 'coder-7b' });
    plain = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
    await plain?.close();
    await model?.close();
  });
  const search = async (c: Client, args: Record<string, unknown>): Promise<TextResult> => (await c.callTool({ name: 'search_symbols', arguments: { ...args, format: 'json' } })) as TextResult;
  const ok = async (args: Record<string, unknown>): Promise<any> => {
    const r = await search(client, args);
    if (r.isError) throw new Error(r.content[0]!.text);
    return JSON.parse(r.content[0]!.text);
  };

  test('vocab_anchored keeps the words the repository names and drops the rest', async () => {
    const r = await ok({ query: 'payment', vocab_anchored: true });
    expect(model.asked).toContain('payment');
    // `payment` is the query's own word; `Charge` repeats `charge`; a phrase is no identifier.
    expect(r.expansion).toEqual({ model: 'coder-7b', vocab_anchored: true, terms: ['charge', 'invoice'], dropped: ['zzqxWidget'] });
    expect(r.results[0].name).toBe('payment');
    expect(r.results.filter((x: any) => x.via).map((x: any) => [x.name, x.via])).toEqual([
      ['chargeCard', 'charge'],
      ['createInvoice', 'invoice'],
    ]);
  });

  test('expand alone keeps every word the model gave', async () => {
    const r = await ok({ query: 'payment', expand: true });
    expect(r.expansion.terms).toEqual(['charge', 'invoice', 'zzqxWidget']);
    expect(r.expansion.dropped).toBeUndefined();
  });

  test('without a model the expansion is refused with how to configure one', async () => {
    const r = await search(plain, { query: 'payment', vocab_anchored: true });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('GORTEX_LLM_ENDPOINT');
    const none = JSON.parse((await search(plain, { query: 'payment' })).content[0]!.text);
    expect(none.expansion).toBeUndefined();
  });
});
