/**
 * What one resource is: the URI scheme and MIME types, the definition of a static resource and a
 * URI template, and what a read works with (the session's repository, its tool answers, the
 * session's own state). Free of the MCP SDK: `index.ts` turns these into protocol handlers.
 */
import type { ProgressReporter, ToolContext } from '../../workspace/context';

/** What resources and prompts work on: the session's repository and its re-index events. */
export interface ResourceHost {
  /**
   * The current context; awaits a refresh under way so reads see the latest files. A host that can
   * be warming reports the wait to `progress`.
   */
  context(options?: { progress?: ProgressReporter }): Promise<ToolContext>;
  /** Registers `listener`, called after each watcher-driven re-index of the repository; returns its removal. */
  onReindexed(listener: () => void): () => void;
}

/** Every URI a resource is served under starts with this. */
export const URI_SCHEME = 'gortex://';

/** MIME type of the JSON resources. */
export const JSON_MIME = 'application/json';
/** MIME type of the guide. */
export const MARKDOWN_MIME = 'text/markdown';

/** Runs one tool through the session's call pipeline and gives its JSON answer; throws its failure as a `ToolCallError`. */
export type ToolReader = (tool: string, args?: Record<string, unknown>) => Promise<unknown>;

/** Per-session state the session resource reports and subscriptions live in. */
export interface SessionState {
  startedAt: number;
  reindexes: number;
  lastReindexAt: number | null;
  subscriptions: Set<string>;
}

/** What a read works with. */
export interface ResourceReads {
  /** The session repository's complete context (a warming repository's wait is taken here). */
  context(): Promise<ToolContext>;
  /** The session's tool answers, as its own tool calls get them. */
  tool: ToolReader;
  state: SessionState;
}

/**
 * Which tool answer a resource's body is: `tool` called with `arguments` (a template's `{param}`
 * stands for its URI segment), plus the top-level keys in `adds`, which no tool answers.
 * Listed in the resource's `_meta` so clients (and tests) can check the two never drift apart.
 */
export interface ToolRendering {
  tool: string;
  arguments: Record<string, unknown>;
  adds?: string[];
}

/** How a resource presents itself in `resources/list`. */
interface ResourceListing {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Set when the body is a tool's answer. */
  renders?: ToolRendering;
}

/** A resource at a fixed URI (`gortex://<key>`). */
export interface StaticResource extends ResourceListing {
  /** The body: a string is served as is, anything else as JSON. */
  read(reads: ResourceReads): Promise<unknown> | unknown;
}

/** A family of resources under one URI template (`gortex://<key>/{param}`). */
export interface TemplateResource extends ResourceListing {
  /** The template's parameter name (`topic`, `id`). */
  param: string;
  /** Why `param` names nothing, or undefined when it is acceptable. */
  check(param: string): string | undefined;
  read(reads: ResourceReads, param: string): Promise<unknown> | unknown;
}

/** An epoch-ms time as ISO 8601 (null stays null). */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
