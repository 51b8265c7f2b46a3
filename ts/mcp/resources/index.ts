/**
 * MCP resources: read-only, URI-addressed views of the session (`gortex://stats`,
 * `gortex://guide/{topic}`, …) rendered on every read, plus subscriptions that are told
 * (`notifications/resources/updated`) after each watcher-driven re-index. `catalog.ts` says what
 * each resource is — most are a tool's answer, read through the session's call pipeline
 * (`tool-reader.ts`). This file is the only one here that knows the MCP SDK: URI resolution,
 * the protocol handlers and the errors.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolCallError } from '../../calls/dispatch';
import { completeContext } from '../../workspace/context';
import { STATIC_RESOURCES, TEMPLATES } from './catalog';
import { URI_SCHEME, type ResourceHost, type ResourceReads, type SessionState, type StaticResource, type TemplateResource, type ToolReader } from './resource';

/** What the server, the prompts and the daemon build on: the host, the URI scheme and the session's tool reader. */
export { URI_SCHEME, type ResourceHost, type ToolReader } from './resource';
export { toolReader } from './tool-reader';

/** JSON-RPC error code MCP assigns to "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/** The `_meta` key naming the tool answer a resource renders (see `ToolRendering`). */
export const RENDERS_META = 'gortex/renders';

type Resolved = { kind: 'static'; def: StaticResource } | { kind: 'template'; def: TemplateResource; param: string };

/** Maps a URI onto its resource, or throws the MCP "resource not found" error saying what exists. */
function resolveUri(uri: string): Resolved {
  const notFound = (why: string): never => {
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (${why})`, { uri });
  };
  if (!uri.startsWith(URI_SCHEME)) notFound(`gortex serves only ${URI_SCHEME} URIs`);
  const rest = uri.slice(URI_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash < 0) {
    if (!Object.hasOwn(STATIC_RESOURCES, rest)) notFound(`resources: ${Object.keys(STATIC_RESOURCES).map((k) => URI_SCHEME + k).join(', ')}`);
    return { kind: 'static', def: STATIC_RESOURCES[rest]! };
  }
  const head = rest.slice(0, slash);
  const raw = rest.slice(slash + 1);
  const def = Object.hasOwn(TEMPLATES, head) ? TEMPLATES[head] : undefined;
  if (!def) return notFound(`templates: ${Object.keys(TEMPLATES).map((k) => `${URI_SCHEME}${k}/{…}`).join(', ')}`);
  let param: string;
  try {
    param = decodeURIComponent(raw);
  } catch {
    return notFound('the part after the template name is not valid percent-encoding');
  }
  if (param === '' || param.includes('/')) notFound(`${URI_SCHEME}${head}/ takes exactly one non-empty segment`);
  const problem = def.check(param);
  if (problem) notFound(problem);
  return { kind: 'template', def, param };
}

/** A read's failure as the MCP error a client sees: a tool's `not_found` is "resource not found". */
function readFailure(uri: string, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof ToolCallError) {
    if (error.code === 'not_found') return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (${error.message})`, { uri });
    return new McpError(ErrorCode.InternalError, `reading ${uri} failed: ${error.code}: ${error.message}`);
  }
  return new McpError(ErrorCode.InternalError, `reading ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** The `_meta` of a listing: the tool answer it renders, when it renders one. */
const renderMeta = (def: StaticResource | TemplateResource): { _meta?: Record<string, unknown> } => (def.renders ? { _meta: { [RENDERS_META]: def.renders } } : {});

/**
 * Installs resources/list, resources/templates/list, resources/read, resources/subscribe and
 * resources/unsubscribe on `server` (declaring the `resources` capability, so call it before
 * connecting). Reads work on `host`'s repository and on the tool answers `tool` gives (the
 * session's own pipeline: `toolReader`); after each re-index of the repository, every
 * subscribed URI gets `notifications/resources/updated`.
 */
export function registerResources(server: Server, host: ResourceHost, tool: ToolReader): void {
  server.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
  const state: SessionState = { startedAt: Date.now(), reindexes: 0, lastReindexAt: null, subscriptions: new Set() };
  // Resources carry no warming block: a warming repository's are read from the complete graph.
  const reads: ResourceReads = { context: async () => completeContext(await host.context()), tool, state };

  const unsubscribe = host.onReindexed(() => {
    state.reindexes++;
    state.lastReindexAt = Date.now();
    for (const uri of state.subscriptions) {
      // A client that went away cannot be told; the session itself carries on.
      server.sendResourceUpdated({ uri }).catch(() => {});
    }
  });
  // A daemon serves many sessions from one repository: a closed session must stop listening.
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previousOnClose?.();
  };

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: Object.entries(STATIC_RESOURCES).map(([key, r]) => ({
      uri: URI_SCHEME + key,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
      ...renderMeta(r),
    })),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: Object.entries(TEMPLATES).map(([key, t]) => ({
      uriTemplate: `${URI_SCHEME}${key}/{${t.param}}`,
      name: t.name,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
      ...renderMeta(t),
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const target = resolveUri(uri);
    let value: unknown;
    try {
      value = target.kind === 'static' ? await target.def.read(reads) : await target.def.read(reads, target.param);
    } catch (error) {
      throw readFailure(uri, error);
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return { contents: [{ uri, mimeType: target.def.mimeType, text }] };
  });

  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    resolveUri(request.params.uri);
    state.subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    // Unsubscribing from something never subscribed is a no-op, as the protocol expects.
    state.subscriptions.delete(request.params.uri);
    return {};
  });
}
