/**
 * MCP `completion/complete`: values for prompt arguments (`safe_to_change`'s symbol ids — the last
 * of a comma-separated list —, `pre_commit`'s path scope) and resource-template parameters (guide
 * topics, community and process ids), answered from the session's own tool calls, at most 100.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { GUIDE_TOPICS } from './resources/guide';
import type { ToolReader } from './resources/resource';

/** Most values one completion answers (the protocol's cap). */
const MAX_VALUES = 100;

type Completer = (value: string, tool: ToolReader) => Promise<string[]>;

const startsWith = (value: string) => (candidate: string): boolean => candidate.toLowerCase().startsWith(value.toLowerCase());

/** Symbol ids whose name matches what was typed (search_symbols' ranking). */
const symbolIds: Completer = async (value, tool) => {
  if (value.trim() === '') return [];
  const answer = (await tool('search_symbols', { query: value.trim(), limit: 20 })) as { results?: { id: string }[] };
  return (answer.results ?? []).map((r) => r.id);
};

const COMPLETERS: Record<string, Completer> = {
  'prompt:safe_to_change:ids': async (value, tool) => {
    // A comma-separated list: complete its last item, keep the ones before.
    const cut = value.lastIndexOf(',');
    const head = cut < 0 ? '' : value.slice(0, cut + 1);
    return (await symbolIds(value.slice(cut + 1), tool)).map((id) => head + id);
  },
  'prompt:pre_commit:scope': async (value, tool) => {
    const answer = (await tool('find_files', { query: value === '' ? '.' : value, limit: 50 })) as { results?: { path: string }[] };
    const dirs = new Set<string>();
    for (const r of answer.results ?? []) {
      const parts = r.path.split('/');
      for (let i = 1; i < parts.length; i++) dirs.add(`${parts.slice(0, i).join('/')}/`);
    }
    return [...dirs].filter(startsWith(value)).sort();
  },
  'resource:gortex://guide/{topic}:topic': async (value) => Object.keys(GUIDE_TOPICS).filter(startsWith(value)),
  'resource:gortex://community/{id}:id': async (value, tool) => {
    const answer = (await tool('get_communities', {})) as { communities?: { id: number; label: string }[] };
    return (answer.communities ?? []).flatMap((c) => [String(c.id), c.label]).filter(startsWith(value));
  },
  'resource:gortex://process/{id}:id': async (value, tool) => {
    const answer = (await tool('get_processes', {})) as { processes?: { id: number; name: string }[] };
    return (answer.processes ?? []).flatMap((p) => [String(p.id), p.name]).filter(startsWith(value));
  },
};

/** Installs `completion/complete` (declaring the `completions` capability, so call it before connecting). */
export function registerCompletions(server: Server, tool: ToolReader): void {
  server.registerCapabilities({ completions: {} });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const key = ref.type === 'ref/prompt' ? `prompt:${ref.name}:${argument.name}` : `resource:${ref.uri}:${argument.name}`;
    const completer = COMPLETERS[key];
    let values: string[] = [];
    if (completer) {
      try {
        values = [...new Set(await completer(argument.value, tool))];
      } catch {
        // A completion is a hint: a repository that cannot answer yet offers none.
        values = [];
      }
    }
    return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
  });
}
