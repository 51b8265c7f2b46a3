/**
 * Every resource gortex serves and where its body comes from. A resource that shows what a tool
 * answers is that tool's answer, read through the session's call pipeline (`renders`): one
 * implementation per answer, in the tool's vocabulary. The rest have no tool: the session view,
 * the guide, the schema tables, the report, the surprises rollup and the rules-file audit.
 */
import type { GraphStats } from '../../engine/engine';
import { packageVersion } from '../../support/package-root';
import { gitInfo } from '../../support/git';
import { surprises, TODO_TAGS } from '../../tools/rollups';
import { audit } from '../../tools/agent-audit';
import { fullGuide, GUIDE_TOPICS, guideSection } from './guide';
import { report } from './report';
import { iso, JSON_MIME, MARKDOWN_MIME, type ResourceReads, type StaticResource, type TemplateResource, type ToolRendering } from './resource';
import { schema } from './schema';

/**
 * A JSON resource whose body is the answer of `renders.tool` to `renders.arguments`, with the keys
 * `adds` returns (named in `renders.adds`) beside the answer's own.
 */
function rendering(
  listing: Pick<StaticResource, 'name' | 'title' | 'description'>,
  renders: ToolRendering,
  adds?: (reads: ResourceReads) => Promise<Record<string, unknown>>,
): StaticResource {
  return {
    ...listing,
    mimeType: JSON_MIME,
    renders,
    read: async (reads) => {
      const answer = await reads.tool(renders.tool, renders.arguments);
      return adds ? { ...(answer as Record<string, unknown>), ...(await adds(reads)) } : answer;
    },
  };
}

/** An id segment as the engine's id-or-name arguments take it: digits are a number, anything else a name. */
const idOrName = (param: string): number | string => (/^\d+$/.test(param) ? Number(param) : param);

/** The static resources, by key (`gortex://<key>`), in listing order. */
export const STATIC_RESOURCES: Readonly<Record<string, StaticResource>> = {
  session: {
    name: 'session',
    title: 'Session',
    description: "This MCP session: repository, server version, start time, re-index count, subscribed URIs, and token savings (this session's and lifetime).",
    mimeType: JSON_MIME,
    read: async ({ context, state, tool }) => {
      const ctx = await context();
      const stats = ctx.engine.stats(ctx.repo);
      // Through the session's own pipeline: the savings are this session's.
      const { token_savings } = (await tool('graph_stats')) as { token_savings: unknown };
      return {
        server: 'gortex',
        version: packageVersion(),
        repo: stats.name,
        root: ctx.root,
        started_at: iso(state.startedAt),
        indexed_at: iso(stats.indexed_at_ms),
        reindexes: state.reindexes,
        last_reindex_at: iso(state.lastReindexAt),
        subscriptions: [...state.subscriptions].sort(),
        token_savings,
      };
    },
  },
  stats: rendering(
    { name: 'stats', title: 'Graph statistics', description: 'The graph_stats answer: node and edge counts by kind and provenance tier, unresolved references, search-index memory, token savings.' },
    { tool: 'graph_stats', arguments: {} },
  ),
  schema: {
    name: 'schema',
    title: 'Graph schema',
    description: 'Node kinds, type flavors, edge kinds and provenance tiers with their meaning and counts; id formats; caveat classes.',
    mimeType: JSON_MIME,
    read: async ({ tool }) => schema((await tool('graph_stats')) as GraphStats),
  },
  guide: {
    name: 'guide',
    title: 'Usage guide',
    description: `How to use gortex from an agent: ${Object.keys(GUIDE_TOPICS).join(', ')}.`,
    mimeType: MARKDOWN_MIME,
    read: () => fullGuide(),
  },
  'index-health': rendering(
    {
      name: 'index-health',
      title: 'Index health',
      description:
        'The index_health answer: one verdict (healthy, degraded, unhealthy) on whether the index is complete and matches the disk — parse failures, skipped files, changed files, the unresolved share of references.',
    },
    { tool: 'index_health', arguments: {} },
  ),
  workspace: rendering(
    {
      name: 'workspace',
      title: 'Workspace',
      description: "The workspace_info answer (mode, the session's repository, member repositories and projects, the active project) plus the git state of the session's repository.",
    },
    { tool: 'workspace_info', arguments: {}, adds: ['git'] },
    async ({ context }) => ({ git: await gitInfo((await context()).root) }),
  ),
  repos: rendering(
    { name: 'repos', title: 'Repositories', description: 'The list_repos answer: every repository this session can reach, by project, with the active project and saved scopes.' },
    { tool: 'list_repos', arguments: {} },
  ),
  'active-project': rendering(
    {
      name: 'active-project',
      title: 'Active project',
      description: "The get_active_project answer: the project this session's queries are narrowed to (set_active_project) and its repositories; null when none.",
    },
    { tool: 'get_active_project', arguments: {} },
  ),
  communities: rendering(
    {
      name: 'communities',
      title: 'Communities',
      description: 'The get_communities answer: functional clusters (Leiden over calls and references) with label, size, cohesion, hub and top files, largest first.',
    },
    { tool: 'get_communities', arguments: { limit: 100 } },
  ),
  processes: rendering(
    {
      name: 'processes',
      title: 'Processes',
      description: 'The get_processes answer: execution flows from scored entry points (mains, handlers, commands), best first; test flows kept apart.',
    },
    { tool: 'get_processes', arguments: { limit: 50 } },
  ),
  report: {
    name: 'report',
    title: 'Orientation report',
    description: 'Graph size, languages, node and edge kinds, health score, top hotspots, communities, flows, dead code, cycles and TODO counts.',
    mimeType: JSON_MIME,
    read: async ({ context }) => report(await context()),
  },
  'god-nodes': rendering(
    {
      name: 'god-nodes',
      title: 'God nodes',
      description:
        'The analyze kind=hotspots answer for the 20 functions and methods with the highest score (fan_in×2 + fan_out×1.5 + community crossings×3 + betweenness×0.4, normalised to 0–100), whatever the threshold.',
    },
    { tool: 'analyze', arguments: { kind: 'hotspots', threshold: 0, limit: 20 } },
  ),
  surprises: {
    name: 'surprises',
    title: 'Surprises',
    description: 'Import and call cycles, dead code, and the hotspots calling most into other communities.',
    mimeType: JSON_MIME,
    read: async ({ context }) => surprises(await context()),
  },
  audit: {
    name: 'audit',
    title: 'Agent-config audit',
    description: 'CLAUDE.md, AGENTS.md, Cursor/Windsurf/Copilot rules checked against the repository: dead paths, unknown symbols, size.',
    mimeType: JSON_MIME,
    read: async ({ context }) => audit(await context()),
  },
  questions: rendering(
    {
      name: 'questions',
      title: 'Open questions',
      description: `The analyze kind=todos answer: ${TODO_TAGS.join(' / ')} comments counted by tag and assignee, the first 200 listed.`,
    },
    { tool: 'analyze', arguments: { kind: 'todos', tags: [...TODO_TAGS], limit: 200 } },
  ),
};

/** The URI templates, by key (`gortex://<key>/{param}`), in listing order. */
export const TEMPLATES: Readonly<Record<string, TemplateResource>> = {
  guide: {
    name: 'guide-topic',
    title: 'Usage guide section',
    description: `One section of the usage guide; topic is one of ${Object.keys(GUIDE_TOPICS).join(', ')}.`,
    mimeType: MARKDOWN_MIME,
    param: 'topic',
    check: (topic) => (Object.hasOwn(GUIDE_TOPICS, topic) ? undefined : `unknown guide topic "${topic}"; topics: ${Object.keys(GUIDE_TOPICS).join(', ')}`),
    read: (_reads, topic) => guideSection(topic),
  },
  community: {
    name: 'community',
    title: 'Community',
    description: 'The get_communities answer for one community by id or label: members, files, cohesion and neighbouring communities.',
    mimeType: JSON_MIME,
    param: 'id',
    renders: { tool: 'get_communities', arguments: { id: '{id}' } },
    check: (id) => (id.trim() === '' ? 'a community id (a number from gortex://communities) or label is required' : undefined),
    read: ({ tool }, id) => tool('get_communities', { id: idOrName(id) }),
  },
  process: {
    name: 'process',
    title: 'Process',
    description: 'The get_processes answer for one execution flow by id or entry name: its call-tree trace step by step.',
    mimeType: JSON_MIME,
    param: 'id',
    renders: { tool: 'get_processes', arguments: { id: '{id}' } },
    check: (id) => (id.trim() === '' ? 'a process id (a number from gortex://processes) or entry name is required' : undefined),
    read: ({ tool }, id) => tool('get_processes', { id: idOrName(id) }),
  },
};
