/**
 * Context artifacts: the files `.gortex.yaml` `artifacts:` registers as context an agent should be
 * able to find — database schemas, API specs, infrastructure configs, ADRs — whether or not the
 * index parses them. `search_artifacts` ranks them by the query's words (in the id, description and
 * path, then in the text, with the matching lines); `get_artifact` returns one with its content and
 * the graph symbols it names. An entry's path may be a glob: each file it matches is an artifact,
 * its id taken from its path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ARTIFACT_KINDS, ConfigError, loadConfig, type ArtifactSetting } from '../config/config';
import { RegexMatcher } from '../engine/engine';
import type { ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';
import { defineTool, repoNameOf, ToolInputError } from './registry';
import { globToRegex } from './source-shape';

/** Most files one glob entry expands to, bytes read per artifact, and files walked looking for glob matches. */
const MAX_GLOB_FILES = 500;
const MAX_ARTIFACT_BYTES = 1024 * 1024;
const MAX_WALK = 20_000;
/** Directories a glob never walks into. */
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', 'build', 'target', 'vendor', '.venv', '__pycache__']);

/** One registered artifact, resolved to a file. */
interface Artifact {
  id: string;
  path: string;
  kind: ArtifactSetting['kind'];
  description?: string;
}

/** The registered artifacts of this repository (globs expanded), and entries that matched nothing. */
function artifactsOf(ctx: ToolContext): { artifacts: Artifact[]; unmatched: string[] } {
  let settings: ArtifactSetting[];
  try {
    settings = loadConfig(ctx.root).artifacts ?? [];
  } catch (error) {
    if (error instanceof ConfigError) throw new ToolInputError('invalid_argument', error.message);
    throw error;
  }
  if (settings.length === 0) {
    throw new ToolInputError(
      'not_found',
      'no artifacts are registered: list them in .gortex.yaml, like "artifacts:\\n  - id: db-schema\\n    path: db/schema.sql\\n    kind: schema\\n    description: the Postgres schema" (path may be a glob such as docs/adr/*.md)',
    );
  }
  const out: Artifact[] = [];
  const unmatched: string[] = [];
  const seen = new Set<string>();
  for (const s of settings) {
    const files = /[*?[]/.test(s.path) ? expandGlob(ctx.root, s.path) : fs.existsSync(path.join(ctx.root, s.path)) ? [s.path] : [];
    if (files.length === 0) unmatched.push(`${s.at}: ${s.path}`);
    for (const file of files) {
      const id = s.id && files.length === 1 && !/[*?[]/.test(s.path) ? s.id : file.replace(/\.[^./]+$/, '').replace(/[^\w.-]+/g, '-');
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ id, path: file, kind: s.kind, ...(s.description ? { description: s.description } : {}) });
    }
  }
  return { artifacts: out, unmatched };
}

/** Repository-relative files matching `glob` (bounded; links leaving the repository are not followed). */
function expandGlob(root: string, glob: string): string[] {
  const matcher = new RegexMatcher(globToRegex(glob));
  const base = glob.slice(0, glob.search(/[*?[]/)).replace(/[^/]*$/, '');
  const out: string[] = [];
  let walked = 0;
  const walk = (rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_GLOB_FILES || ++walked > MAX_WALK) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(child);
      } else if (e.isFile() && matcher.test(child)) out.push(child);
    }
  };
  walk(base.replace(/\/$/, ''));
  return out;
}

/** An artifact's text (through the session's overlay), cut at `MAX_ARTIFACT_BYTES`. */
function textOf(ctx: ToolContext, a: Artifact): { text: string; truncated: boolean } | undefined {
  try {
    const bytes = readSource(ctx, a.path, () => fs.readFileSync(path.join(ctx.root, a.path)));
    if (bytes.includes(0)) return { text: '', truncated: false };
    return { text: bytes.subarray(0, MAX_ARTIFACT_BYTES).toString('utf8'), truncated: bytes.length > MAX_ARTIFACT_BYTES };
  } catch {
    return undefined;
  }
}

/** Lower-case words of 2+ characters. */
const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9_]{2,}/g) ?? [];

/** `search_artifacts`. */
function searchArtifacts(ctx: ToolContext, args: { query: string; kind?: string | undefined; limit?: number | undefined }): unknown {
  const terms = [...new Set(words(args.query))];
  if (terms.length === 0) throw new ToolInputError('invalid_argument', 'query needs at least one word of two or more letters or digits');
  const { artifacts, unmatched } = artifactsOf(ctx);
  const rows = [];
  for (const a of artifacts.filter((x) => args.kind === undefined || x.kind === args.kind)) {
    const content = textOf(ctx, a);
    const head = words(`${a.id} ${a.description ?? ''} ${a.path}`);
    const lines = (content?.text ?? '').split('\n');
    let score = 0;
    const matched = new Set<string>();
    for (const t of terms) {
      if (head.includes(t)) {
        score += 5;
        matched.add(t);
      }
    }
    const snippets: { line: number; text: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const lw = words(lines[i]!);
      const hits = terms.filter((t) => lw.includes(t));
      if (hits.length === 0) continue;
      // Diminishing: the tenth mention of a word adds less than the first.
      score += hits.length / (1 + snippets.length * 0.25);
      hits.forEach((t) => matched.add(t));
      if (snippets.length < 3) snippets.push({ line: i + 1, text: lines[i]!.trim().slice(0, 200) });
    }
    if (score === 0) continue;
    rows.push({ id: a.id, kind: a.kind, path: a.path, ...(a.description ? { description: a.description } : {}), score: Math.round(score * 100) / 100, matched: terms.filter((t) => matched.has(t)), snippets });
  }
  rows.sort((x, y) => y.matched.length - x.matched.length || y.score - x.score || x.id.localeCompare(y.id));
  const limit = args.limit ?? 10;
  return { results: rows.slice(0, limit), total: rows.length, artifacts: artifacts.length, ...(unmatched.length > 0 ? { unmatched_entries: unmatched } : {}) };
}

/** `get_artifact`. */
function getArtifact(ctx: ToolContext, args: { id: string; max_bytes?: number | undefined }): unknown {
  const { artifacts } = artifactsOf(ctx);
  const a = artifacts.find((x) => x.id === args.id || x.path === args.id);
  if (!a) throw new ToolInputError('not_found', `no artifact ${JSON.stringify(args.id)}; registered: ${artifacts.map((x) => x.id).slice(0, 30).join(', ')}`);
  const content = textOf(ctx, a);
  if (!content) throw new ToolInputError('not_found', `artifact ${a.id}: ${a.path} cannot be read`);
  const max = args.max_bytes ?? 64 * 1024;
  const cut = Buffer.from(content.text, 'utf8').length > max;
  const text = cut ? Buffer.from(content.text, 'utf8').subarray(0, max).toString('utf8') : content.text;
  // Names in the text that the graph declares (identifiers of 3+ characters, each looked up once).
  const repo = repoNameOf(ctx);
  const references: { name: string; ids: string[] }[] = [];
  for (const name of [...new Set(content.text.match(/\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g) ?? [])]) {
    if (references.length >= 50) break;
    const hits = ctx.engine.query('search_symbols', { query: name, limit: 5 }, { repo: ctx.repo }) as { results?: { id: string; name: string; kind: string }[] };
    const ids = (hits.results ?? []).filter((h) => h.name === name && h.kind !== 'file' && h.kind !== 'doc' && !h.id.startsWith(`${repo}/${a.path}::`)).map((h) => h.id);
    if (ids.length > 0) references.push({ name, ids: ids.slice(0, 3) });
  }
  return { id: a.id, kind: a.kind, path: a.path, ...(a.description ? { description: a.description } : {}), content: text, ...(cut || content.truncated ? { truncated: true } : {}), references };
}

/** The artifacts family. */
export const artifactTools = [
  defineTool({
    name: 'search_artifacts',
    category: 'read',
    effect: 'read',
    description:
      'Search the context artifacts .gortex.yaml registers (artifacts: DB schemas, API specs, infra configs, ADRs — files or globs, parsed by the index or not) by words: ranked by the words matched (id, description and path count most), each with its matching lines.',
    input: {
      query: z.string().min(1).max(500).describe('Words to find, e.g. "orders table foreign key"'),
      kind: z.enum(ARTIFACT_KINDS).optional().describe('Only artifacts of this kind'),
      limit: z.number().int().min(1).max(100).optional().describe('Most results (default 10)'),
    },
    handler: (ctx, args) => searchArtifacts(ctx, args),
  }),
  defineTool({
    name: 'get_artifact',
    category: 'read',
    effect: 'read',
    description: 'One registered context artifact by id (or path): its kind, description and content, and the graph symbols its text names.',
    input: {
      id: z.string().min(1).describe('The artifact id (as search_artifacts lists it) or its path'),
      max_bytes: z.number().int().min(256).max(1024 * 1024).optional().describe('Content bytes returned (default 65536)'),
    },
    handler: (ctx, args) => getArtifact(ctx, args),
  }),
];
