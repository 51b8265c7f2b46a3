/**
 * The TypeScript folders form a layered DAG (ARCHITECTURE.md, "Layers"): a folder imports only
 * folders below it, and each external boundary has one owner — the MCP SDK `ts/mcp`, Express
 * `ts/http`, oclif `ts/cli`, the native addon `ts/engine/native.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const TS = path.resolve(__dirname, '..', 'ts');

/** Lowest first: a folder may import itself and the folders before it, never one after it. */
const LAYERS = ['support', 'engine', 'config', 'lsp', 'workspace', 'tools', 'wire', 'eval', 'calls', 'mcp', 'http', 'daemon', 'cli'] as const;

/** External packages and the one folder (or file) allowed to import each. */
const OWNERS: { pattern: RegExp; what: string; owner: (file: string) => boolean; where: string }[] = [
  { pattern: /^@modelcontextprotocol\/sdk/, what: 'the MCP SDK', owner: (f) => f.startsWith('mcp/'), where: 'ts/mcp' },
  { pattern: /^express$/, what: 'Express', owner: (f) => f.startsWith('http/'), where: 'ts/http' },
  { pattern: /^@oclif\//, what: 'oclif', owner: (f) => f.startsWith('cli/'), where: 'ts/cli' },
  { pattern: /^vscode-jsonrpc/, what: 'vscode-jsonrpc', owner: (f) => f.startsWith('lsp/'), where: 'ts/lsp' },
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a file imports: static, type-only, re-exported, dynamic or required. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'";]*?\sfrom\s+'([^']+)'/g, /\bimport\s+'([^']+)'/g, /\bimport\(\s*'([^']+)'\s*\)/g, /\brequire\(\s*'([^']+)'\s*\)/g];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** Every import of the tree as `{ file, target }`, both relative to `ts/` (target: a folder-qualified module or a package). */
function imports(): { file: string; spec: string; target: string | undefined }[] {
  return sources(TS).flatMap((full) => {
    const file = path.relative(TS, full);
    return specifiers(fs.readFileSync(full, 'utf8')).map((spec) => ({
      file,
      spec,
      target: spec.startsWith('.') ? path.relative(TS, path.resolve(path.dirname(full), spec)) : undefined,
    }));
  });
}

const layerOf = (rel: string): string => (rel.includes(path.sep) ? rel.split(path.sep)[0]! : '(root)');

describe('the TypeScript layers', () => {
  const all = imports();

  test('the scan sees the tree (a broken scanner cannot pass vacuously)', () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all.some((i) => i.file === path.join('calls', 'pipeline.ts') && i.target === path.join('tools', 'registry'))).toBe(true);
    expect(all.some((i) => i.file === path.join('mcp', 'server.ts') && i.spec.startsWith('@modelcontextprotocol/sdk'))).toBe(true);
  });

  test('every file sits in a known layer', () => {
    const unplaced = [...new Set(all.map((i) => layerOf(i.file)))].filter((layer) => !(LAYERS as readonly string[]).includes(layer));
    expect(unplaced).toEqual([]);
  });

  test('no folder imports a folder above it (so the folders cannot form a cycle)', () => {
    const rank = new Map<string, number>(LAYERS.map((layer, i) => [layer, i]));
    const upward = all
      .filter((i) => i.target !== undefined && !i.target.startsWith('..'))
      .filter((i) => (rank.get(layerOf(i.target!)) ?? Infinity) > rank.get(layerOf(i.file))!)
      .map((i) => `${i.file} imports ${i.spec} (${layerOf(i.file)} → ${layerOf(i.target!)})`);
    expect(upward).toEqual([]);
  });

  test('nothing reaches outside ts/ except the native addon loader', () => {
    const outside = all.filter((i) => i.target?.startsWith('..') && i.file !== path.join('engine', 'native.ts')).map((i) => `${i.file} imports ${i.spec}`);
    expect(outside).toEqual([]);
  });

  test('each external boundary has one owner', () => {
    const stray = all.flatMap((i) =>
      OWNERS.filter((o) => i.target === undefined && o.pattern.test(i.spec) && !o.owner(i.file)).map((o) => `${i.file} imports ${o.what} (${i.spec}); only ${o.where} may`),
    );
    expect(stray).toEqual([]);
  });
});
