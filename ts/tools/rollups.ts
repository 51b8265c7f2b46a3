/**
 * Whole-repository rollups over the engine's analyses, for briefings (the orientation prompt, the
 * report and surprises resources): the top hotspots, flows and communities, tagged-comment
 * counts, the surprises (cycles, dead code, cross-community hubs) and the directory outline.
 * Each reads the engine for one repository, in the vocabulary of the analysis it runs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommunityList, HotspotsResult, ProcessList } from '../engine/engine';
import type { ToolContext } from '../workspace/context';

/** The `count` highest-scoring hotspots (fan-in, fan-out, community crossings, betweenness), whatever the threshold. */
export function godNodes(ctx: ToolContext, count = 20): HotspotsResult {
  return ctx.engine.analyze('hotspots', { threshold: 0, limit: count }, { repo: ctx.repo });
}

/** The `count` best-scored product execution flows (entry point, score, steps). */
export function topProcesses(ctx: ToolContext, count = 10): ProcessList {
  return ctx.engine.query('get_processes', { limit: count }, { repo: ctx.repo }) as ProcessList;
}

/** The `count` largest communities (Leiden), largest first. */
export function communityList(ctx: ToolContext, count = 100): CommunityList {
  return ctx.engine.query('get_communities', { limit: count }, { repo: ctx.repo }) as CommunityList;
}

/** Hotspots the surprises rollup ranks by community crossings. */
const SURPRISE_HOTSPOTS = 200;

/** Cycles, dead code and the hotspots with the most calls into other communities. */
export function surprises(ctx: ToolContext): unknown {
  const cycles = ctx.engine.analyze('cycles', { limit: 20 }, { repo: ctx.repo });
  const dead = ctx.engine.analyze('dead_code', { limit: 20 }, { repo: ctx.repo });
  const hot = ctx.engine.analyze('hotspots', { threshold: 0, limit: SURPRISE_HOTSPOTS }, { repo: ctx.repo });
  const hubs = hot.hotspots
    .filter((h) => h.crossings > 0)
    .sort((a, b) => b.crossings - a.crossings || b.score - a.score || (a.node.id < b.node.id ? -1 : 1))
    .slice(0, 10);
  return {
    cycles: { total: cycles.total, by_kind: cycles.by_kind, by_severity: cycles.by_severity, cycles: cycles.cycles, truncated: cycles.truncated },
    dead_code: { total: dead.total, by_confidence: dead.by_confidence, dead: dead.dead, truncated: dead.truncated, blind_spots: dead.blind_spots },
    cross_community_hubs: {
      criterion: `functions and methods with calls/references into other communities, most crossings first (of the ${SURPRISE_HOTSPOTS} top hotspots)`,
      hubs,
    },
  };
}

/** Comment tags the tagged-comment rollups look for. */
export const TODO_TAGS = ['TODO', 'FIXME', 'XXX', 'HACK', 'QUESTION'] as const;

/** How many tagged comments a repository holds, by tag. */
export interface TodoCounts {
  total: number;
  /** The scan stopped early (more than 50,000 candidate lines); counts are then lower bounds. */
  truncated: boolean;
  by_tag: Partial<Record<(typeof TODO_TAGS)[number], number>>;
}

/** Counts of `TODO_TAGS` comments from the engine's `analyze kind=todos` (no rows listed). */
export function todoCounts(ctx: ToolContext): TodoCounts {
  const r = ctx.engine.analyze('todos', { tags: [...TODO_TAGS], limit: 1 }, { repo: ctx.repo });
  return { total: r.total, truncated: r.counts_capped === true, by_tag: r.by_tag as TodoCounts['by_tag'] };
}

/** Indexed files under one directory. */
export interface OutlineDir {
  /** Repository-relative directory, with a trailing slash. */
  path: string;
  files: number;
  /** Largest subdirectories (top-level entries only). */
  children?: OutlineDir[];
}

/** The directory outline of a repository. */
export interface Outline {
  total_files: number;
  /** Files directly at the root (0 when `truncated`: the remainder would be wrong). */
  root_files: number;
  dirs: OutlineDir[];
  /** Some directory had more subdirectories than were counted. */
  truncated: boolean;
}

/** Counts indexed files under `rel/` (graph file nodes, so ignored and skipped files never count). */
function filesUnder(ctx: ToolContext, rel: string): number {
  return ctx.engine.query('find_files', { glob: '*', path: rel, limit: 1 }, { repo: ctx.repo }).total;
}

/** Subdirectories counted per directory; each costs one scan of the file list. */
export const OUTLINE_MAX_SUBDIRS = 100;

/** Visible subdirectories of `rel` (dot-directories hold tooling, not code), by name, at most `OUTLINE_MAX_SUBDIRS`. */
function subdirs(root: string, rel: string): { dirs: string[]; truncated: boolean } {
  try {
    const dirs = fs
      .readdirSync(path.join(root, rel), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => `${rel}${d.name}/`)
      .sort();
    return { dirs: dirs.slice(0, OUTLINE_MAX_SUBDIRS), truncated: dirs.length > OUTLINE_MAX_SUBDIRS };
  } catch {
    return { dirs: [], truncated: false };
  }
}

/** Directories by indexed file count, largest first, empty ones left out. */
function counted(ctx: ToolContext, dirs: readonly string[]): OutlineDir[] {
  return dirs
    .map((d) => ({ path: d, files: filesUnder(ctx, d) }))
    .filter((d) => d.files > 0)
    .sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
}

/**
 * The repository's directory outline: top-level directories by indexed file count (their largest
 * subdirectories nested), and how many files sit at the root. Counts come from the graph.
 */
export function outline(ctx: ToolContext, maxDirs = 12, maxChildren = 6): Outline {
  const total = ctx.engine.stats(ctx.repo).files;
  const listed = subdirs(ctx.root, '');
  let truncated = listed.truncated;
  const top = counted(ctx, listed.dirs);
  const inDirs = top.reduce((sum, d) => sum + d.files, 0);
  const dirs: OutlineDir[] = top.slice(0, maxDirs).map((d) => {
    const inner = subdirs(ctx.root, d.path);
    truncated ||= inner.truncated;
    const children = counted(ctx, inner.dirs).slice(0, maxChildren);
    return children.length > 0 ? { ...d, children } : d;
  });
  return { total_files: total, root_files: listed.truncated ? 0 : Math.max(0, total - inDirs), dirs, truncated };
}
