/**
 * detect_changes and `gortex diff` on real git repositories: a function's body changed, one added,
 * one deleted, a file added (untracked), one deleted and one renamed, staged changes only, another
 * base, and refusals (no git, unknown base). Through the real MCP server and the built CLI.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { runCli } from './helpers/cli';
import { gitFixture } from './helpers/daemon';
import { serveEmbedded } from './helpers/mcp';
import { fixtureCopy, tempHome, useTempHome } from './helpers/repo';

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

/** `{path: {status, symbols: ["~ name", …]}}` of an answer, for exact comparison. */
function byFile(answer: any): Record<string, { status: string; symbols: string[] }> {
  const mark: Record<string, string> = { added: '+', modified: '~', deleted: '-' };
  return Object.fromEntries(
    answer.files.map((f: any) => [f.path, { status: f.status, symbols: (f.symbols ?? []).map((s: any) => `${mark[s.change]} ${s.id.split('::')[1]}`) }]),
  );
}

describe('detect_changes', () => {
  useTempHome();
  let root: string;
  let repo: EmbeddedRepo;
  let client: Client;
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
  const write = (rel: string, text: string): void => fs.writeFileSync(path.join(root, rel), text);
  const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

  beforeAll(async () => {
    root = gitFixture('query/app-ts', 'diffrepo');
    repo = await openEmbedded(root, { watch: false });
    client = await serveEmbedded(repo);
  });
  afterAll(async () => {
    await client.close();
    repo.close();
  });

  test('a clean tree has no changes', async () => {
    expect(await ok(client, 'detect_changes', {})).toMatchObject({ base: 'HEAD', files: [], summary: { files: 0 } });
  });

  test('working tree: modified, added and deleted declarations; untracked, deleted and renamed files', async () => {
    write('src/format.ts', read('src/format.ts').replace("return text + '!';", "return text + '!!';").replace('export function padLabel(text: string): string {\n  return \' \' + text;\n}\n', '') + '\nexport function whisper(text: string): string {\n  return text.toLowerCase();\n}\n');
    write('src/extra.ts', 'export const extra = 1;\n');
    fs.rmSync(path.join(root, 'src/empty.ts'));
    git('mv', 'src/legacy.ts', 'src/old.ts');
    const answer = await ok(client, 'detect_changes', {});
    expect(byFile(answer)).toEqual({
      'src/empty.ts': { status: 'deleted', symbols: [] },
      'src/extra.ts': { status: 'added', symbols: ['+ extra'] },
      'src/format.ts': { status: 'modified', symbols: ['- padLabel', '~ shout', '+ whisper'] },
      'src/old.ts': { status: 'renamed', symbols: ['~ legacyBanner'] },
    });
    const format = answer.files.find((f: any) => f.path === 'src/format.ts');
    expect(format).toMatchObject({ additions: 5, deletions: 4 });
    expect(format.symbols.find((s: any) => s.name === 'whisper').id).toBe('diffrepo/src/format.ts::whisper');
    expect(answer.files.find((f: any) => f.path === 'src/old.ts').old_path).toBe('src/legacy.ts');
    expect(answer.summary).toMatchObject({ files: 4, symbols: { added: 2, modified: 2, deleted: 1 } });
    // Narrowed to a path.
    expect(Object.keys(byFile(await ok(client, 'detect_changes', { paths: ['src/format.ts'] })))).toEqual(['src/format.ts']);
  });

  test('staged changes only, and another base', async () => {
    git('add', 'src/extra.ts');
    const staged = await ok(client, 'detect_changes', { staged: true });
    expect(byFile(staged)).toEqual({ 'src/extra.ts': { status: 'added', symbols: ['+ extra'] }, 'src/old.ts': expect.objectContaining({ status: 'renamed' }) });
    git('add', '-A');
    git('commit', '-q', '-m', 'second');
    expect((await ok(client, 'detect_changes', {})).files).toEqual([]);
    const sinceFirst = await ok(client, 'detect_changes', { base: 'HEAD~1' });
    expect(Object.keys(byFile(sinceFirst)).sort()).toEqual(['src/empty.ts', 'src/extra.ts', 'src/format.ts', 'src/old.ts']);
  });

  test('refusals: an unknown base, a folder that is not in git', async () => {
    const bad = (await client.callTool({ name: 'detect_changes', arguments: { base: 'no-such-branch' } })) as { isError?: boolean; content: { text: string }[] };
    expect(bad.content[0]!.text).toMatch(/^invalid_argument: base "no-such-branch" is not a commit here/);
    const plain = fixtureCopy('query/app-ts', 'nogit');
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2', GIT_CEILING_DIRECTORIES: path.dirname(plain) };
    const r = runCli(['diff', '--repo', plain, '--embedded'], { env });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not_available: \S+nogit is not inside a git/);
  });

  test('gortex diff prints files and declarations', () => {
    write('src/cli.ts', read('src/cli.ts').replace("'cli'", "'CLI'"));
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const r = runCli(['diff', '--repo', root, '--embedded'], { env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      '1 file changed against HEAD (+1 -1); declarations: 0 added, 1 modified, 0 deleted\n' + 'modified src/cli.ts  (+1 -1)\n' + '  ~ function cli  L3-5\n',
    );
    expect(JSON.parse(runCli(['diff', '--repo', root, '--embedded', '--json'], { env }).stdout).summary.files).toBe(1);
  });

  test('diff_context: callers, callees and tests of each changed declaration, and a risk per file', async () => {
    const other = gitFixture('query/app-ts', 'ctxrepo');
    const otherRepo = await openEmbedded(other, { watch: false });
    const otherClient = await serveEmbedded(otherRepo);
    try {
      const edit = (rel: string, from: string, to: string): void => fs.writeFileSync(path.join(other, rel), fs.readFileSync(path.join(other, rel), 'utf8').replace(from, to));
      edit('src/format.ts', "return '[' + text + ']';", "return '<' + text + '>';");
      edit('src/render.ts', "return s.name() + s.area();", "return s.name() + ':' + s.area();");
      const answer = await ok(otherClient, 'diff_context', {});
      const format = answer.files.find((f: any) => f.path === 'src/format.ts');
      const label = format.symbols.find((s: any) => s.name === 'formatLabel');
      expect(label.callers.total).toBeGreaterThanOrEqual(2);
      expect(label.callers.top.map((c: any) => c.id)).toEqual(expect.arrayContaining(['ctxrepo/src/render.ts::Renderer.draw', 'ctxrepo/src/cli.ts::cli']));
      expect(label.tests).toEqual([]);
      expect(format.risk.level).toBe('medium');
      expect(format.risk.reasons[0]).toMatch(/^formatLabel changed, \d+ callers, no test reaches it$/);
      const render = answer.files.find((f: any) => f.path === 'src/render.ts');
      const summarize = render.symbols.find((s: any) => s.name === 'summarize');
      expect(summarize.tests.length).toBeGreaterThan(0);
      expect(summarize.callees.total).toBeGreaterThan(0);
    } finally {
      await otherClient.close();
      otherRepo.close();
    }
  });

  test('check_guards: boundary and co-change rules of .gortex.yaml against the changes, or every declaration', async () => {
    const guarded = gitFixture('query/app-ts', 'guardrepo');
    const config = [
      'guards:',
      '  rules:',
      '    - name: cli-not-render',
      '      kind: boundary',
      '      source: src/cli.ts',
      '      target: src/render.ts',
      '      message: the CLI must not reach into rendering',
      '    - name: format-with-tests',
      '      kind: co-change',
      '      source: src/format.ts',
      '      target: "src/*.test.ts"',
      '      severity: warn',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(guarded, '.gortex.yaml'), config);
    const guardedRepo = await openEmbedded(guarded, { watch: false });
    const c = await serveEmbedded(guardedRepo);
    try {
      expect(await ok(c, 'check_guards', {})).toMatchObject({ rules: 2, passed: true, violations: [] });
      fs.writeFileSync(
        path.join(guarded, 'src/cli.ts'),
        "import * as fmt from './format';\nimport { summarize } from './render';\n\nexport function cli(): string {\n  return fmt.formatLabel('cli') + summarize;\n}\n",
      );
      fs.writeFileSync(path.join(guarded, 'src/format.ts'), fs.readFileSync(path.join(guarded, 'src/format.ts'), 'utf8').replace("'!'", "'?'"));
      const answer = await ok(c, 'check_guards', {});
      expect(answer.passed).toBe(false);
      const boundary = answer.violations.filter((v: any) => v.rule === 'cli-not-render');
      expect(boundary.length).toBeGreaterThan(0);
      expect(boundary[0]).toMatchObject({ severity: 'error', message: 'the CLI must not reach into rendering', at: { path: 'src/cli.ts' } });
      expect(boundary.map((v: any) => v.to)).toContain('guardrepo/src/render.ts::summarize');
      expect(answer.violations.find((v: any) => v.rule === 'format-with-tests')).toMatchObject({ severity: 'warn', files: ['src/format.ts'] });
      const all = await ok(c, 'check_guards', { all: true });
      expect(all.violations.every((v: any) => v.rule === 'cli-not-render')).toBe(true);
      expect(all.not_checked).toEqual(['format-with-tests: co-change rules compare a diff; run without all']);
      fs.writeFileSync(path.join(guarded, '.gortex.yaml'), config.replace('kind: boundary', 'kind: sideways'));
      const bad = (await c.callTool({ name: 'check_guards', arguments: {} })) as { content: { text: string }[] };
      expect(bad.content[0]!.text).toMatch(/^invalid_argument: .*\.gortex\.yaml:2: guards\.rules\[0\]\.kind must be boundary or co-change, got "sideways"/);
    } finally {
      await c.close();
      guardedRepo.close();
    }
  });
});
