/**
 * Measured coverage through the real doors, from a report a real run writes: `go test
 * -coverprofile` in a temporary Go module, then `analyze kind=coverage|coverage_summary` over MCP
 * (full and compact surfaces) and `gortex analyze --kind coverage` — and the row turns `stale`
 * once its file is edited after the report, as review_pack reports for the changed function.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callJson, okJson, startStdio } from './helpers/mcp';
import { runCli } from './helpers/cli';

const LIB = `package calc

// Sign says whether n is negative, zero or positive.
func Sign(n int) int {
	if n < 0 {
		return -1
	}
	if n == 0 {
		return 0
	}
	return 1
}

// Unused is called by no test.
func Unused(n int) int {
	m := n * 2
	return m + 1
}
`;

const TEST = `package calc

import "testing"

func TestSign(t *testing.T) {
	if Sign(-4) != -1 || Sign(3) != 1 {
		t.Fatal("sign")
	}
}
`;

function goModule(): string {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-cov-')), 'calc');
  fs.mkdirSync(path.join(root, 'calc'), { recursive: true });
  fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/calc\n\ngo 1.21\n');
  fs.writeFileSync(path.join(root, 'calc', 'calc.go'), LIB);
  fs.writeFileSync(path.join(root, 'calc', 'calc_test.go'), TEST);
  execFileSync('go', ['test', '-coverprofile=coverage.out', './...'], { cwd: root, env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' } });
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'calc');
  return root;
}

describe('measured coverage over MCP and the CLI', () => {
  const root = goModule();
  let client: Client;
  beforeAll(async () => {
    client = await startStdio(root, 'full');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('joins the go test cover profile to the functions, least covered first', async () => {
    const r = await okJson(client, 'analyze', { kind: 'coverage' });
    expect(r.symbols.map((s: any) => [s.name, s.covered, s.lines, s.percent])).toEqual([
      ['Unused', 0, 3, 0],
      // The zero branch (lines 9–10) never ran.
      ['Sign', 5, 7, 71.4],
    ]);
    expect(r.reports).toEqual([expect.objectContaining({ path: 'coverage.out', format: 'go_cover_profile', files: 1, matched: 1, stale_files: 0 })]);
    const s = await okJson(client, 'analyze', { kind: 'coverage_summary', group_by: 'file' });
    expect(s).toMatchObject({ functions: 2, functions_covered: 1, files: 1, groups: [expect.objectContaining({ path: 'calc/calc.go', functions_uncovered: 1 })] });
  });

  it('the compact analyze tool has both as operations', async () => {
    const compact = await startStdio(root, 'compact');
    try {
      const r = await okJson(compact, 'analyze', { operation: 'coverage', arguments: { max_percent: 0 } });
      expect(r.symbols.map((s: any) => s.name)).toEqual(['Unused']);
      const s = await okJson(compact, 'analyze', { operation: 'coverage_summary', arguments: {} });
      expect(s.groups.map((g: any) => g.path)).toEqual(['calc']);
    } finally {
      await compact.close();
    }
  });

  it('gortex analyze --kind coverage prints the table; a missing report is refused with how to make one', () => {
    const out = runCli(['analyze', '--kind', 'coverage', '--repo', root, '--embedded']);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/0\.0 %\s+0\/3 lines\s+function\s+Unused\s+calc\/calc\.go:15/);
    expect(out.stdout).toContain('from coverage.out (go_cover_profile): 1 of 1 files matched');
    const bad = runCli(['analyze', '--kind', 'coverage', '--repo', root, '--embedded', '--json-args', '{"reports":["missing.out"]}']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('missing.out');
  });

  it('a file edited after the report is marked stale', async () => {
    const file = path.join(root, 'calc', 'calc.go');
    const later = new Date(fs.statSync(path.join(root, 'coverage.out')).mtimeMs + 60_000);
    fs.writeFileSync(file, LIB.replace('m + 1', 'm + 2'));
    fs.utimesSync(file, later, later);
    await okJson(client, 'reindex_repository', {});
    const r = await okJson(client, 'analyze', { kind: 'coverage' });
    expect(r.symbols.every((s: any) => s.stale === true)).toBe(true);
    expect(r.reports[0].stale_files).toBe(1);
    // review_pack carries the changed declarations' measured coverage.
    const pack = await okJson(client, 'review_pack', {});
    expect(pack.tests.measured).toEqual({ reports: ['coverage.out'], symbols: [{ id: expect.stringMatching(/::Unused$/), percent: 0, covered: 0, lines: 3, stale: true }] });
    const none = await callJson(client, 'analyze', { kind: 'coverage', reports: ['../outside.out'] });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/outside the repository|cannot be read/);
  });
});
