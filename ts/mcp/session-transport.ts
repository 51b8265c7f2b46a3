/**
 * The MCP side of Streamable HTTP: one session's transport between HTTP requests and its SDK
 * server, and the JSON-RPC vocabulary the HTTP layer (\`ts/http/streamable.ts\`) reads frames with,
 * so only \`ts/mcp\` imports the SDK.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error code of an unknown or expired session. */
export const SESSION_NOT_FOUND = -32001;
const INVALID_REQUEST = -32600;

/** Where a session sends events: an SSE stream (\`ts/http/sse.ts\`'s \`SseChannel\` is one). */
export interface EventSink {
  event(name: string, data: string): void;
  end(): void;
  readonly closed: boolean;
}

/** A JSON-RPC error object with a request id (null when there is none to correlate). */
export function rpcError(id: RequestId | null, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** A key for a request id that keeps `1` and `"1"` apart. */
export function idKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

/**
 * One session's link between the HTTP requests and its SDK server. A request's response is handed
 * back to the POST that carried it; every other message the server sends (notifications, requests
 * to the client) goes to the session's SSE stream.
 */
export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The GET stream, when one is open. */
  stream: EventSink | undefined;
  /** Requests answered as SSE streams of their own, by id key: their related notifications go there. */
  readonly requestStreams = new Map<string, EventSink>();
  /** Requests awaiting the server's answer, by id key, with their original id. */
  private readonly waiting = new Map<string, { id: RequestId; resolve: (message: JSONRPCMessage | undefined) => void }>();
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const related = options?.relatedRequestId;
    const own = related === undefined ? undefined : this.requestStreams.get(idKey(related));
    if (own && !isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) {
      own.event('message', JSON.stringify(message));
      return;
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = (message as { id?: RequestId }).id;
      const waiter = id === undefined ? undefined : this.waiting.get(idKey(id));
      if (waiter) {
        this.waiting.delete(idKey(id!));
        waiter.resolve(message);
      }
      // A response nobody waits for (its request was cancelled) has nowhere to go: responses
      // never travel on the GET stream.
      return;
    }
    // Server-initiated traffic (tools/list_changed, resources/updated, …) only has the GET
    // stream to travel on; with no stream open it is dropped, as the transport allows: the
    // client learns the same by listing again.
    this.stream?.event('message', JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.values()) {
      waiter.resolve(rpcError(waiter.id, SESSION_NOT_FOUND, 'session closed before the request was answered') as JSONRPCMessage);
    }
    this.waiting.clear();
    this.stream?.end();
    this.stream = undefined;
    this.onclose?.();
  }

  /** Whether requests of this session are being answered right now. */
  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /** Whether the transport (and so its server) was closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Hands one inbound frame to the server; resolves with the response of a request, or undefined
   * for notifications, responses and cancelled requests.
   */
  dispatch(message: JSONRPCMessage, extra?: MessageExtraInfo): Promise<JSONRPCMessage | undefined> {
    if (this.closed) {
      return Promise.resolve(isJSONRPCRequest(message) ? (rpcError(message.id, SESSION_NOT_FOUND, 'session closed') as JSONRPCMessage) : undefined);
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      // The SDK sends nothing for a cancelled request: release the POST that waits for it.
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined) {
        const waiter = this.waiting.get(idKey(requestId));
        this.waiting.delete(idKey(requestId));
        waiter?.resolve(undefined);
      }
    }
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message, extra);
      return Promise.resolve(undefined);
    }
    const key = idKey(message.id);
    if (this.waiting.has(key)) {
      return Promise.resolve(rpcError(message.id, INVALID_REQUEST, `request id ${JSON.stringify(message.id)} is already in flight in this session`) as JSONRPCMessage);
    }
    return new Promise((resolve) => {
      this.waiting.set(key, { id: message.id, resolve });
      this.onmessage?.(message, extra);
    });
  }
}
