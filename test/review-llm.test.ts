/**
 * The review's model passes through `gortex mcp` over stdio, against a local OpenAI-compatible
 * chat-completions server that answers as a model would (no network here): `critique_review`
 * drops what the model shows is a false positive and keeps the rest; `review use_llm` folds in the
 * model's findings relocated to exact lines (capped at warning) and counts those it could not
 * place; secrets are redacted before anything is sent; the key comes from the environment; a
 * failing model loses no finding; and a repository's own `llm:` setting is ignored.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { runCliAsync } from './helpers/cli';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { gitRepo } from './helpers/repo';

const CHANGED = `export interface Db { query(sql: string, params?: unknown[]): Promise<unknown[]> }

export async function all(db: Db, ids: string[]) {
  const out = [];
  for (const id of ids) out.push(await db.query("SELECT * FROM users WHERE id = $1", [id]));
  return out;
}

export function ratio(a: number, b: number): number {
  const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  return a / b;
}
`;

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

interface Seen {
  auth: string | undefined;
  model: string;
  system: string;
  user: string;
  /** The conversation's last message. */
  last: string;
}

/** A chat-completions server answering critic and reviewer prompts; `fail` makes it answer 500. */
function modelServer(fail = false): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end('not found');
        return;
      }
      const request = JSON.parse(body);
      const [system, user] = request.messages.map((m: { content: string }) => m.content);
      seen.push({ auth: req.headers.authorization, model: request.model, system, user, last: request.messages[request.messages.length - 1].content });
      if (fail) {
        res.writeHead(500).end('model overloaded');
        return;
      }
      let answer: unknown;
      if (system.includes('You answer questions about a code repository')) {
        // First a graph read, then the answer citing what it read (and one thing it did not).
        answer = request.messages.length <= 2 ? { action: 'get_callers', args: { id: 'all' }, why: 'who uses it' } : { answer: 'all() queries once per id; nothing calls it yet.', citations: ['src/store.ts::all', 'src/store.ts:5', 'src/nowhere.ts::ghost'] };
      } else if (system.includes('order pull requests')) {
        const prs = JSON.parse(user) as { number: number }[];
        answer = { order: prs.map((p) => ({ number: p.number, rationale: `reviewed as #${p.number}` })).reverse() };
      } else if (system.includes('false positives')) {
        const decisions = [...user.matchAll(/### Finding (\d+)\nrule: ([\w-]+)/g)].map(([, index, rule]) =>
          rule === 'loop-query' ? { index: Number(index), keep: false, reason: 'ids holds at most one element here' } : { index: Number(index), keep: true, reason: 'a real credential' },
        );
        answer = { decisions };
      } else {
        answer = {
          findings: [
            { path: 'src/store.ts', line: 12, line_text: 'return a / b;', severity: 'error', message: 'b can be zero: division by zero' },
            { path: 'src/store.ts', line: 3, line_text: 'this line is not in the file', severity: 'warning', message: 'made up' },
          ],
        };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `Here you are:\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` } }] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

function repo(): string {
  const root = gitRepo('store', { 'src/store.ts': 'export const version = 1;\n' });
  fs.writeFileSync(path.join(root, 'src/store.ts'), CHANGED);
  return root;
}

describe('review with a configured model', () => {
  const root = repo();
  let model: Awaited<ReturnType<typeof modelServer>>;
  let client: Client;
  beforeAll(async () => {
    model = await modelServer();
    client = await startStdio(root, 'full', { GORTEX_LLM_ENDPOINT: model.url, GORTEX_LLM_MODEL: 'coder-7b', GORTEX_LLM_API_KEY: 'k-123' });
  });
  afterAll(async () => {
    await client?.close();
    await model?.close();
  });

  it('critique_review drops what the model shows cannot happen, with its reason, and keeps the rest', async () => {
    const review = await okJson(client, 'review', {});
    expect(review.findings.map((f: any) => f.rule).sort()).toEqual(['hardcoded-secret', 'loop-query']);
    const r = await okJson(client, 'critique_review', { findings: review.findings });
    expect(r.critic).toEqual({ model: 'coder-7b', endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(r.dropped).toEqual([{ finding: expect.objectContaining({ rule: 'loop-query' }), reason: 'ids holds at most one element here' }]);
    expect(r.kept).toEqual([expect.objectContaining({ rule: 'hardcoded-secret', critic: 'a real credential' })]);
    expect(r.verdict).toBe(review.verdict);
    const sent = model.seen[model.seen.length - 1]!;
    expect(sent).toMatchObject({ auth: 'Bearer k-123', model: 'coder-7b' });
    // The code around each finding is shown, the flagged line marked; secrets never leave.
    expect(sent.user).toMatch(/>> +5 \| +for \(const id of ids\)/);
    expect(model.seen.every((s) => !s.user.includes(SECRET))).toBe(true);
  });

  it('review use_llm folds in the model findings it can relocate, capped at warning', async () => {
    const r = await okJson(client, 'review', { use_llm: true });
    const llm = r.findings.filter((f: any) => f.rule === 'llm');
    expect(llm).toEqual([expect.objectContaining({ path: 'src/store.ts', line: 11, severity: 'warning', grounded: false, source: 'return a / b;', message: 'b can be zero: division by zero', fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) })]);
    expect(r.llm).toEqual({ used: true, model: 'coder-7b', findings: 1, unlocated: 1 });
    const sent = model.seen[model.seen.length - 1]!;
    expect(sent.system).toContain('real defects');
    expect(sent.user).toContain('### src/store.ts');
    expect(sent.user).not.toContain(SECRET);
    const pack = await okJson(client, 'review_pack', { use_llm: true });
    expect(pack.llm).toMatchObject({ used: true, findings: 1 });
  });

  it('triage_prs use_llm: the model re-orders the graph ranking with a rationale per PR', async () => {
    const pr = (number: number, title: string, file: string) => ({ number, title, draft: false, base: { ref: 'main' }, head: { ref: `b${number}`, sha: 'f'.repeat(40) }, updated_at: '2026-12-01T00:00:00Z', files: [{ filename: file, status: 'modified' }] });
    const prs = [pr(1, 'Batch user lookups', 'src/store.ts'), pr(2, 'Fix a typo', 'README.md')];
    const plain = await okJson(client, 'triage_prs', { prs });
    expect(plain.ranked.map((p: any) => p.number)).toEqual([1, 2]);
    // A file this checkout does not have (the PR adds it, or the index leaves it out) maps to nothing, and says so.
    expect(plain.ranked[1].unknown_files).toEqual(['README.md']);
    expect(plain.llm).toBeUndefined();
    const r = await okJson(client, 'triage_prs', { prs, use_llm: true });
    expect(r.ranked.map((p: any) => [p.rank, p.number, p.graph_rank, p.rationale])).toEqual([
      [1, 2, 2, 'reviewed as #2'],
      [2, 1, 1, 'reviewed as #1'],
    ]);
    expect(r.llm).toEqual({ used: true, model: 'coder-7b', ranked: 2 });
    expect(r.order).toContain("the model's order");
  });

  it('ask researches with graph reads and checks its citations against the graph', async () => {
    const r = await okJson(client, 'ask', { question: 'what does all do and who calls it?' });
    expect(r.answer).toBe('all() queries once per id; nothing calls it yet.');
    expect(r.steps).toEqual([{ step: 1, action: 'get_callers', args: { id: 'all' }, why: 'who uses it' }]);
    expect(r.citations).toEqual([
      { ref: 'src/store.ts::all', in_graph: true },
      { ref: 'src/store.ts:5', in_graph: true },
      { ref: 'src/nowhere.ts::ghost', in_graph: false },
    ]);
    expect(r.note).toContain('citations name nothing');
    // The model saw the tool's real answer.
    expect(model.seen[model.seen.length - 1]!.last).toMatch(/^get_callers answered: \{/);
    const compact = await startStdio(root, 'compact', { GORTEX_LLM_ENDPOINT: model.url, GORTEX_LLM_MODEL: 'coder-7b' });
    try {
      expect((await okJson(compact, 'ask', { operation: 'research', arguments: { question: 'what does all do?' } })).answer).toContain('queries once per id');
    } finally {
      await compact.close();
    }
  });

  it('gortex review --use-llm prints the model findings and says what the model added; SARIF carries them', async () => {
    const env = { ...process.env, GORTEX_LLM_ENDPOINT: model.url, GORTEX_LLM_MODEL: 'coder-7b' };
    const text = await runCliAsync(['review', '--repo', root, '--embedded', '--use-llm', '--fail-on', 'never'], { env });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('model coder-7b: 1 finding added, 1 it could not place on a line');
    expect(text.stdout).toContain('src/store.ts:11:3  warning  llm');
    const sarif = await runCliAsync(['review', '--repo', root, '--embedded', '--use-llm', '--format', 'sarif', '--fail-on', 'never'], { env });
    const results = JSON.parse(sarif.stdout).runs[0].results;
    expect(results.find((x: any) => x.ruleId === 'llm').locations[0].physicalLocation.region).toEqual({ startLine: 11, startColumn: 3, endLine: 11 });
  });
});

describe('a failing model loses no finding; a repository cannot choose the model', () => {
  const root = repo();
  let model: Awaited<ReturnType<typeof modelServer>>;
  let failing: Client;
  let repoConfigured: Client;
  let globalConfigured: Client;
  let good: Awaited<ReturnType<typeof modelServer>>;
  beforeAll(async () => {
    model = await modelServer(true);
    good = await modelServer();
    failing = await startStdio(root, 'full', { GORTEX_LLM_ENDPOINT: model.url, GORTEX_LLM_MODEL: 'coder-7b' });
    // The repository names a model: ignored (only the user's global config or environment may).
    const other = repo();
    fs.writeFileSync(path.join(other, '.gortex.yaml'), `llm:\n  endpoint: ${good.url}\n  model: evil\n`);
    repoConfigured = await startStdio(other, 'full');
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-xdg-'));
    fs.mkdirSync(path.join(xdg, 'gortex'));
    fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), `llm:\n  endpoint: ${good.url}\n  model: from-config\n  api_key_env: MY_MODEL_KEY\n`);
    globalConfigured = await startStdio(root, 'full', { XDG_CONFIG_HOME: xdg, MY_MODEL_KEY: 'k-cfg' });
  });
  afterAll(async () => {
    await failing?.close();
    await repoConfigured?.close();
    await globalConfigured?.close();
    await model?.close();
    await good?.close();
  });

  it('keeps every finding and says why when the model fails', async () => {
    const review = await okJson(failing, 'review', { use_llm: true });
    expect(review.findings.map((f: any) => f.rule).sort()).toEqual(['hardcoded-secret', 'loop-query']);
    expect(review.llm).toMatchObject({ used: false, error: expect.stringContaining('HTTP 500') });
    const r = await okJson(failing, 'critique_review', { findings: review.findings });
    expect(r.kept).toHaveLength(2);
    expect(r.dropped).toEqual([]);
    expect(r.undecided).toBe(2);
    expect(r.note).toContain('model overloaded');
  });

  it('ask without a model is not_available and says how to configure one', async () => {
    const r = await callJson(repoConfigured, 'ask', { question: 'who calls all?' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^not_available: ask needs a language model; configure an OpenAI-compatible endpoint/);
  });

  it('ignores llm in a repository file, and reads it from the global config with the key from its variable', async () => {
    const r = await okJson(repoConfigured, 'critique_review', { findings: [{ rule: 'loop-query', severity: 'warning', path: 'src/store.ts', line: 5 }] });
    expect(r.critic).toBe('none');
    expect(good.seen.some((s) => s.model === 'evil')).toBe(false);
    const c = await okJson(globalConfigured, 'critique_review', { findings: [{ rule: 'loop-query', severity: 'warning', path: 'src/store.ts', line: 5, message: 'query per element' }] });
    expect(c.critic).toMatchObject({ model: 'from-config' });
    expect(c.dropped).toHaveLength(1);
    expect(good.seen[good.seen.length - 1]).toMatchObject({ model: 'from-config', auth: 'Bearer k-cfg' });
  });
});
