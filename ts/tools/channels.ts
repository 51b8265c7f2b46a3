/**
 * The push channels besides diagnostics (`diagnostics.ts`): `workspace_readiness` (warm-up phases,
 * the last one replayed), `daemon_health` (a snapshot on a ticker that runs only while subscribed),
 * `stale_refs` (rebuilds that changed what this session read or wrote) and `graph_invalidated`
 * (every rebuild), each with its `unsubscribe_*`. Channels belong to the MCP session that asked:
 * they end when it closes (`ts/workspace/channels.ts`).
 */
import { z } from 'zod';
import { lspPool } from '../lsp/pool';
import { SessionChannels, type GraphEvent, type PushSources } from '../workspace/channels';
import type { ToolContext } from '../workspace/context';
import { defineTool, ToolInputError, type ToolDef } from './registry';

/** The calling session's channels, or the refusal saying where subscriptions work. */
export function sessionChannels(ctx: ToolContext): SessionChannels {
  if (!ctx.channels) throw new ToolInputError('not_available', 'push notifications need a session that can receive them: call this over MCP (stdio, the daemon socket or /mcp)');
  return ctx.channels;
}

/** The session's push sources (every MCP door has them). */
function sourcesOf(channels: SessionChannels, channel: string): PushSources {
  if (!channels.sources) throw new ToolInputError('not_available', `this server does not publish ${channel} events to its sessions`);
  return channels.sources;
}

/** `unsubscribe_<channel>`: idempotent, and what stays subscribed. */
export function unsubscribeTool(channel: string): ToolDef {
  return defineTool({
    name: `unsubscribe_${channel}`,
    category: 'subscription',
    effect: 'session_write',
    description: `Stop the notifications/${channel} of subscribe_${channel} (idempotent; a session that closes stops them too).`,
    input: {},
    handler: (ctx) => {
      const channels = sessionChannels(ctx);
      return { unsubscribed: channels.unsubscribe(channel), channels: channels.list() };
    },
  });
}

/** Bounds and default of the health ticker's interval. */
const HEALTH_MIN_MS = 1000;
const HEALTH_MAX_MS = 300_000;
const HEALTH_DEFAULT_MS = 15_000;

/** One health snapshot of this process: memory, CPU, sessions, repositories, language servers. */
export function healthSnapshot(sources: PushSources): Record<string, unknown> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const repos = sources.repositories();
  const servers = lspPool().status();
  const alive = servers.filter((s) => s.state === 'ready' || s.state === 'starting');
  const sum = (values: (number | null)[]): number => values.reduce<number>((a, v) => a + (v ?? 0), 0);
  return {
    host: sources.host,
    pid: process.pid,
    uptime_s: Math.round(process.uptime()),
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    heap_total_bytes: memory.heapTotal,
    external_bytes: memory.external,
    array_buffers_bytes: memory.arrayBuffers,
    cpu_user_ms: Math.round(cpu.user / 1000),
    cpu_system_ms: Math.round(cpu.system / 1000),
    active_handles: activeResources(),
    ...SessionChannels.census(),
    tracked_repos: repos.length,
    ready_repos: repos.filter((r) => r.phase === 'ready').length,
    nodes: sum(repos.map((r) => r.nodes)),
    edges: sum(repos.map((r) => r.edges)),
    repos,
    lsp_alive: alive.length,
    lsp_rss_mb: sum(alive.map((s) => s.rss_mb ?? null)),
    ts: Date.now(),
  };
}

/** Libuv resources keeping the process busy (Node's analogue of a goroutine count). */
function activeResources(): number {
  const info = (process as unknown as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo;
  return info ? info.call(process).length : 0;
}

/** The push-channel tools besides diagnostics. */
export function channelTools(): ToolDef[] {
  return [
    defineTool({
      name: 'subscribe_workspace_readiness',
      category: 'subscription',
      effect: 'session_write',
      description:
        'Push this session notifications/workspace_readiness ({repo, root, phase, progress, ts, all_ready}) as each repository the server holds moves through its warm-up ' +
        '(queued → snapshot_loaded → parse → resolve → watcher_started → ready, or failed; untracked when it is dropped). The last phase of every repository replays at once. ' +
        'Not needed to cope with warming: a tool called meanwhile answers with a warming block and partial results.',
      input: {},
      handler: (ctx) => {
        const channels = sessionChannels(ctx);
        const sources = sourcesOf(channels, 'workspace_readiness');
        const last = new Map<string, string>();
        const phases = new Map<string, string>();
        const send = (event: { root: string; phase: string } & Record<string, unknown>): void => {
          // Delta-filtered: a phase already sent for a repository is not sent again.
          if (last.get(event.root) === event.phase) return;
          last.set(event.root, event.phase);
          if (event.phase === 'untracked') phases.delete(event.root);
          else phases.set(event.root, event.phase);
          const allReady = [...phases.values()].every((p) => p === 'ready');
          channels.notify('notifications/workspace_readiness', { ...event, all_ready: allReady });
        };
        const replay = sources.readiness();
        for (const e of replay) phases.set(e.root, e.phase);
        channels.subscribe('workspace_readiness', () => {
          for (const event of replay) send({ ...event });
          return sources.onReadiness((event) => send({ ...event }));
        });
        return { subscribed: 'workspace_readiness', method: 'notifications/workspace_readiness', replayed: replay.length, repos: replay.map((e) => ({ repo: e.repo, phase: e.phase })), channels: channels.list() };
      },
    }),
    unsubscribeTool('workspace_readiness'),
    defineTool({
      name: 'subscribe_daemon_health',
      category: 'subscription',
      effect: 'session_write',
      description:
        'Push this session notifications/daemon_health every interval_ms (default 15 s, clamped to 1 s … 5 min), the first at once: uptime, memory (rss, heap), CPU, open sessions and subscriptions, ' +
        'tracked and ready repositories with graph nodes/edges, live language servers and their memory. The ticker runs only while subscribed; subscribing again changes the interval.',
      input: { interval_ms: z.number().int().optional().describe('Milliseconds between snapshots (1000 … 300000; default 15000)') },
      handler: (ctx, args) => {
        const channels = sessionChannels(ctx);
        const sources = sourcesOf(channels, 'daemon_health');
        const asked = args.interval_ms ?? HEALTH_DEFAULT_MS;
        const interval = Math.min(HEALTH_MAX_MS, Math.max(HEALTH_MIN_MS, asked));
        const tick = (): void => channels.notify('notifications/daemon_health', { interval_ms: interval, ...healthSnapshot(sources) });
        channels.subscribe('daemon_health', () => {
          tick();
          const timer = setInterval(tick, interval);
          timer.unref();
          return () => clearInterval(timer);
        });
        return {
          subscribed: 'daemon_health',
          method: 'notifications/daemon_health',
          interval_ms: interval,
          ...(interval !== asked ? { note: `interval_ms ${asked} was clamped to ${interval} (${HEALTH_MIN_MS} … ${HEALTH_MAX_MS})` } : {}),
          channels: channels.list(),
        };
      },
    }),
    unsubscribeTool('daemon_health'),
    defineTool({
      name: 'subscribe_stale_refs',
      category: 'subscription',
      effect: 'session_write',
      description:
        'Push this session notifications/stale_refs ({repo, reason, refs: [{kind, id, path, via, change, line}]}) when a rebuild changes a symbol or file this session has read ' +
        '(get_symbol, get_symbol_source, batch_symbols, get_editing_context, read_file) or written: modified, moved, removed or deleted. ' +
        'Only real changes to those: another symbol of the same file changing is not news. What was read before subscribing is watched from now on.',
      input: {},
      handler: (ctx) => {
        const channels = sessionChannels(ctx);
        const sources = sourcesOf(channels, 'stale_refs');
        const set = ctx.session?.store?.workingSet;
        if (!set) throw new ToolInputError('not_available', 'stale_refs follows what an MCP session reads and writes; this session keeps no record of that');
        const contextOf = async (root: string): Promise<ToolContext | undefined> => (root === '' || root === ctx.root ? ctx : ctx.workspace?.contextOf(root));
        channels.subscribe('stale_refs', () =>
          set.track(contextOf, (listener) => sources.onGraph(listener), (event: GraphEvent, refs) => {
            const files = [...new Set(refs.map((r) => r.path))].sort();
            channels.notify('notifications/stale_refs', { repo: event.repo, root: event.root, reason: event.reason, files, refs, ts: event.ts });
          }),
        );
        return { subscribed: 'stale_refs', method: 'notifications/stale_refs', working_set: set.list().length, channels: channels.list() };
      },
    }),
    unsubscribeTool('stale_refs'),
    defineTool({
      name: 'subscribe_graph_invalidated',
      category: 'subscription',
      effect: 'session_write',
      description:
        'Push this session notifications/graph_invalidated ({repo, node_count, edge_count, reason, files_changed, ts}) after every rebuild of a repository the server holds ' +
        '(the watcher, a write by any session, a re-index): the coarse signal to drop cached answers. Unfiltered.',
      input: {},
      handler: (ctx) => {
        const channels = sessionChannels(ctx);
        const sources = sourcesOf(channels, 'graph_invalidated');
        channels.subscribe('graph_invalidated', () =>
          sources.onGraph((event) =>
            channels.notify('notifications/graph_invalidated', {
              repo: event.repo,
              root: event.root,
              node_count: event.node_count,
              edge_count: event.edge_count,
              nodes_before: event.nodes_before,
              edges_before: event.edges_before,
              reason: event.reason,
              files_changed: event.files.length,
              files_truncated: event.files_truncated,
              ts: event.ts,
            }),
          ),
        );
        return { subscribed: 'graph_invalidated', method: 'notifications/graph_invalidated', channels: channels.list() };
      },
    }),
    unsubscribeTool('graph_invalidated'),
  ];
}
