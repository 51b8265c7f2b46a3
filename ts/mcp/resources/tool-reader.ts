/**
 * How a resource reads a tool's answer: through the session's own call pipeline and `Caller`, so
 * it sees what the session's tool calls see (its workspace, its active project and bound
 * repositories, roster routing, validation, the concurrency gate and deadline) and one answer
 * has one implementation. Three things differ, on purpose:
 * - names resolve in the registry and exactly the tools resources render are allowed, whatever
 *   the session's tool surface (a compact or hide-mode session still reads its resources);
 * - a warming repository is read complete (resources carry no `warming` block);
 * - answers are not recorded in the session's response ring (a resource read is not an agent's call).
 */
import type { CallPipeline, Caller } from '../../calls/pipeline';
import { ToolCallError } from '../../calls/dispatch';
import { completeContext, type SessionSurface } from '../../workspace/context';
import type { SessionStore } from '../../workspace/session-store';
import type { ToolReader } from './resource';

/** The tools resources render (see `catalog.ts`) and completions ask (`../completions.ts`); the only ones a resource read may call. */
export const RESOURCE_TOOLS: ReadonlySet<string> = new Set([
  'graph_stats',
  'index_health',
  'list_repos',
  'workspace_info',
  'get_active_project',
  'get_communities',
  'get_processes',
  'analyze',
  'search_symbols',
  'find_files',
]);

/** The session's store, read through: its state (active project, bound repositories) shared, `record` a no-op. */
function unrecorded(store: SessionStore): SessionStore {
  const view = Object.create(store) as SessionStore;
  view.record = () => undefined;
  return view;
}

/** The session's surface as resource reads see it: registry names, `RESOURCE_TOOLS` allowed, nothing promoted. */
function resourceSurface(session: SessionSurface): SessionSurface {
  const store = session.store ? unrecorded(session.store) : undefined;
  return {
    get preset() {
      return session.preset;
    },
    get mode() {
      return session.mode;
    },
    get source() {
      return session.source;
    },
    family: 'registry',
    live: () => session.live(),
    allowed: () => RESOURCE_TOOLS,
    promote: () => [],
    ...(store ? { store } : {}),
  };
}

/** The `ToolReader` of one MCP session: `caller` is the session's own (`createMcpServer`), `pipeline` its pipeline. */
export function toolReader(pipeline: CallPipeline, caller: Caller): ToolReader {
  const reader: Caller = {
    context: async (options) => completeContext(await caller.context(options)),
    ...(caller.session ? { session: resourceSurface(caller.session) } : {}),
    ...(caller.workspace ? { workspace: caller.workspace } : {}),
    ...(caller.route ? { route: caller.route } : {}),
  };
  return async (tool, args = {}) => {
    if (!RESOURCE_TOOLS.has(tool)) throw new ToolCallError('internal', `resources do not render ${tool}; RESOURCE_TOOLS lists the ones they do`);
    const outcome = await pipeline.call({ tool, args, format: 'json' }, reader);
    if (!outcome.ok) throw new ToolCallError(outcome.code, outcome.message);
    return JSON.parse(outcome.text) as unknown;
  };
}
