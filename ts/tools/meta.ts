/** Tools about the tool surface itself: what is live, what is deferred, and finding the rest. */
import { z } from 'zod';
import { listPresets } from './presets';
import { defineTool, TOOL_CATEGORIES, type ToolDef } from './registry';
import { type SessionSurface } from '../workspace/context';

/** The JSON Schema an MCP client sees for a tool's input. */
export function inputSchema(tool: ToolDef): Record<string, unknown> {
  const schema = z.toJSONSchema(z.object(tool.input)) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** How well `words` match a tool (0 = not at all); `required` words must all appear. */
function score(tool: ToolDef, words: string[], required: string[]): number {
  const name = tool.name.toLowerCase();
  const text = `${name} ${tool.description.toLowerCase()} ${tool.category}`;
  if (required.some((w) => !text.includes(w))) return 0;
  let total = required.length;
  for (const w of words) {
    if (name === w) total += 5;
    else if (name.includes(w)) total += 3;
    else if (text.includes(w)) total += 1;
    else if (isSubsequence(w, name)) total += 0.5;
  }
  return total;
}

function isSubsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (const c of hay) if (c === needle[i]) i++;
  return i === needle.length;
}

/** The `<functions>{…}</functions>` block of tool specs (name, description, parameters), one per line. */
export function functionsBlock(tools: readonly ToolDef[]): string {
  const lines = tools.map((t) => JSON.stringify({ name: t.name, description: t.description, parameters: inputSchema(t) }));
  return `<functions>\n${lines.join('\n')}\n</functions>`;
}

/** The meta family; `all` is the registry (passed in to avoid an import cycle). */
export function metaTools(all: () => readonly ToolDef[]): ToolDef[] {
  const surfaceOf = (session: SessionSurface | undefined): SessionSurface =>
    session ?? {
      preset: 'full',
      mode: 'hide',
      family: 'registry',
      source: 'no session (every tool is callable)',
      live: () => new Set(all().map((t) => t.name)),
      allowed: () => new Set(all().map((t) => t.name)),
      promote: () => [],
    };
  return [
    defineTool({
      name: 'tool_profile',
      category: 'admin',
      effect: 'read',
      description:
        'The active tool preset and mode, the live and deferred tools, every tool grouped by functional family (nav, read, edit, analysis, review, pr, memory, overlay, subscription, enrich, workspace, admin), and the presets a session can start with (--tools / GORTEX_TOOLS). With tool: that one tool\'s status.',
      input: {
        tool: z.string().min(1).optional().describe('One tool: is it live, deferred (callable, found by tools_search), hidden (blocked here) or unknown'),
      },
      handler: (ctx, args) => {
        const s = surfaceOf(ctx.session);
        const live = s.live();
        const allowed = s.allowed();
        const statusOf = (name: string): 'live' | 'deferred' | 'hidden' => (live.has(name) ? 'live' : allowed.has(name) ? 'deferred' : 'hidden');
        if (args.tool !== undefined) {
          const tool = all().find((t) => t.name === args.tool);
          if (!tool) {
            const known = all().map((t) => t.name);
            const near = known.filter((n) => n.includes(args.tool!) || args.tool!.includes(n)).slice(0, 5);
            return { tool: args.tool, status: 'unknown', enabled: false, preset: s.preset, mode: s.mode, ...(near.length > 0 ? { did_you_mean: near } : {}) };
          }
          const status = statusOf(tool.name);
          return { tool: tool.name, status, enabled: status !== 'hidden', category: tool.category, effect: tool.effect, description: tool.description, preset: s.preset, mode: s.mode };
        }
        const categories = Object.fromEntries(TOOL_CATEGORIES.map((c) => [c, [] as string[]]));
        for (const t of all()) categories[t.category]!.push(t.name);
        return {
          preset: s.preset,
          mode: s.mode,
          source: s.source,
          live: [...live].sort(),
          deferred: all().map((t) => t.name).filter((n) => allowed.has(n) && !live.has(n)).sort(),
          hidden: all().map((t) => t.name).filter((n) => !allowed.has(n)).sort(),
          categories,
          presets: listPresets(),
        };
      },
    }),
    defineTool({
      name: 'tools_search',
      category: 'admin',
      effect: 'session_write',
      description:
        'Find tools that are not in your list yet and add them to it: empty query browses, "select:a,b" picks by name, words rank by relevance ("+word" is required). Returns their input schemas.',
      input: {
        query: z.string().optional().describe('Empty: browse; "select:a,b": exact names; otherwise words (+word = required)'),
        promote: z.boolean().optional().describe('Add the matches to your tool list (default true)'),
        max_results: z.number().int().min(1).max(50).optional().describe('At most this many matches (default 10)'),
        limit: z.number().int().min(1).max(50).optional().describe('Alias of max_results'),
      },
      handler: (ctx, args) => {
        const s = surfaceOf(ctx.session);
        const allowed = s.allowed();
        const live = s.live();
        const candidates = all().filter((t) => allowed.has(t.name));
        const query = (args.query ?? '').trim();
        const limit = args.max_results ?? args.limit ?? 10;
        let matches: ToolDef[];
        if (query === '') {
          // Browse: what is reachable but not listed, names and descriptions only.
          const deferred = candidates.filter((t) => !live.has(t.name));
          return {
            query,
            browse: deferred.map((t) => ({ name: t.name, category: t.category, description: t.description })),
            live: live.size,
          };
        } else if (query.startsWith('select:')) {
          const names = query.slice('select:'.length).split(',').map((n) => n.trim()).filter(Boolean);
          const missing = names.filter((n) => !candidates.some((t) => t.name === n));
          if (missing.length > 0) {
            return { query, error: `not available in this session: ${missing.join(', ')}`, matches: [], promoted: [] };
          }
          matches = names.map((n) => candidates.find((t) => t.name === n)!);
        } else {
          const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
          const required = tokens.filter((w) => w.startsWith('+') && w.length > 1).map((w) => w.slice(1));
          const words = tokens.filter((w) => !w.startsWith('+'));
          matches = candidates
            .map((t) => ({ t, s: score(t, words, required) }))
            .filter((m) => m.s > 0)
            .sort((a, b) => b.s - a.s || a.t.name.localeCompare(b.t.name))
            .slice(0, limit)
            .map((m) => m.t);
        }
        const promoted = args.promote === false ? [] : s.promote(matches.map((t) => t.name).filter((n) => !live.has(n)));
        return {
          query,
          matches: matches.map((t) => ({ name: t.name, category: t.category, description: t.description, input_schema: inputSchema(t) })),
          promoted,
          // The schemas again as a client reads deferred tools inline: one JSON function spec per line.
          functions: functionsBlock(matches),
        };
      },
    }),
  ];
}
