/**
 * MCP over a newline-delimited byte-stream pair — the process's stdio (`gortex mcp --embedded`) or
 * a daemon session's socket (which `gortex mcp` proxies stdio to) — in place of the SDK's
 * `StdioServerTransport`, whose read buffer closed the whole session without a word when one
 * message passed 10 MiB, and which answered nothing to a line that was not JSON-RPC.
 *
 * Every inbound line gets an answer or is delivered:
 * - a line longer than `MAX_LINE_MESSAGE_BYTES` is never buffered past the limit: the rest is
 *   skipped up to its newline, and it is answered with `-32600` (the id read from its top level
 *   as it streams past, else null) and logged; the session keeps serving;
 * - a line that is not JSON gets `-32700`; JSON nested deeper than `MAX_JSON_DEPTH`, a batch (an
 *   array: MCP has no batches since 2025-06-18) or an object that is not a JSON-RPC message gets
 *   `-32600`;
 * - a request other than `initialize` or `ping` before `initialize` is refused with `-32600` (the
 *   MCP lifecycle: the client sends nothing but pings before initializing).
 *
 * Bounded work per session: at most `MAX_INFLIGHT_REQUESTS` requests are being answered at once,
 * and nothing more is read while the peer does not read what was written (the output is backed
 * up) — the input is paused, so a flood of requests waits in the peer's pipe, not in our memory.
 * `notifications/cancelled` is kept here: a cancelled request still holds its slot until its
 * handler finishes, and its response and progress are dropped, as the spec asks (gortex handlers
 * do not stop early, so the SDK learns nothing from it).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { byteSizeText, MAX_LINE_MESSAGE_BYTES } from './limits';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../support/json-depth';
import { idKey, rpcError } from './session-transport';

/** Most requests of one session answered at once; reading waits while this many are. */
export const MAX_INFLIGHT_REQUESTS = 32;
/** Refusals of malformed lines logged per session (oversized messages are always logged). */
const LOGGED_REFUSALS = 20;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Options of a line transport. */
export interface LineTransportOptions {
  /** Where refusals are reported (stderr under `gortex mcp`, the daemon log for socket sessions). */
  log: (message: string) => void;
}

/**
 * Reads the top-level `"id"` of a JSON object as its bytes stream past, in constant memory: how an
 * oversized message's id is recovered without buffering it (the SDK client writes `id` last).
 * Structural characters are ASCII, so scanning UTF-8 bytes is exact.
 */
class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key (after `{` or `,`). */
  private expectKey = false;
  /** Bytes of the depth-1 key being read (undefined when not reading one). */
  private key: number[] | undefined;
  private lastKey: string | undefined;
  /** Bytes of the value of `"id"` being read. */
  private value: number[] | undefined;
  private found: RequestId | undefined;
  private topIsObject: boolean | undefined;

  /** The id seen so far (the last one, as `JSON.parse` keeps), if it is a string or a number. */
  get id(): RequestId | undefined {
    return this.topIsObject ? this.found : undefined;
  }

  feed(bytes: Buffer): void {
    for (let i = 0; i < bytes.length; i++) this.step(bytes[i]!);
  }

  private step(b: number): void {
    if (this.value !== undefined && this.depth === 1 && !(this.value.length === 0 && isSpace(b))) {
      if (!this.inString && (b === 0x2c || b === 0x7d)) this.endValue();
      else if (this.value.length < 256) this.value.push(b);
      else this.value = undefined;
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.key) {
          this.lastKey = Buffer.from(this.key).toString('utf8');
          this.key = undefined;
        }
        return;
      }
      if (this.key && this.key.length < 8) this.key.push(b);
      return;
    }
    switch (b) {
      case 0x22: // "
        this.inString = true;
        if (this.depth === 1 && this.expectKey && this.value === undefined) this.key = [];
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (this.depth === 0 && this.topIsObject === undefined) this.topIsObject = b === 0x7b;
        // An object or array is no id.
        if (this.depth === 1 && this.value !== undefined) this.value = undefined;
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth--;
        return;
      case 0x2c: // ,
        if (this.depth === 1) {
          this.expectKey = true;
          this.lastKey = undefined;
        }
        return;
      case 0x3a: // :
        if (this.depth === 1) {
          this.expectKey = false;
          if (this.lastKey === 'id') this.value = [];
        }
        return;
      default:
        if (this.depth === 0 && this.topIsObject === undefined && !isSpace(b)) this.topIsObject = false;
    }
  }

  private endValue(): void {
    const text = Buffer.from(this.value!).toString('utf8').trim();
    this.value = undefined;
    try {
      const id = JSON.parse(text) as unknown;
      if (typeof id === 'string' || typeof id === 'number') this.found = id;
    } catch {
      /* not a usable id */
    }
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** The `id` of a parsed message's top level when it is usable to correlate an error, else null. */
function topLevelId(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A JSON.parse message cut short (V8 quotes the text it failed on). */
function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A newline-delimited JSON-RPC transport with a per-message size cap and bounded work (see the module comment). */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** Chunks read but not framed yet (held back while the session is at its bounds). */
  private readonly pending: Buffer[] = [];
  /** The current line's parts and size. */
  private line: Buffer[] = [];
  private lineBytes = 0;
  /** The current line once it passed the cap: its size so far and the id read from it. */
  private oversized: { bytes: number; scanner: TopLevelIdScanner } | undefined;
  /** Requests delivered and not answered yet, by id key. */
  private readonly inflight = new Set<string>();
  /** Of those, the ones the client cancelled: their answers and progress are dropped. */
  private readonly cancelled = new Set<string>();
  /** `none` until an initialize request arrives; back to `none` if it fails. */
  private lifecycle: 'none' | 'initializing' | 'ready' = 'none';
  private initializeKey: string | undefined;
  /** Settles when the backed-up output drains. */
  private drained: Promise<void> | undefined;
  private paused = false;
  private pumping = false;
  private started = false;
  private closed = false;
  private refusals = 0;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    // A socket handed over paused (the daemon's handshake reader pauses it) starts flowing here.
    this.input.resume();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = (message as { id?: RequestId }).id;
      const key = id === undefined ? undefined : idKey(id);
      if (key !== undefined) {
        this.inflight.delete(key);
        if (key === this.initializeKey) {
          this.initializeKey = undefined;
          this.lifecycle = isJSONRPCResultResponse(message) ? 'ready' : 'none';
        }
        if (this.cancelled.delete(key)) {
          this.pump();
          return;
        }
      }
      const written = this.write(message);
      this.pump();
      return written;
    }
    const related = options?.relatedRequestId;
    if (related !== undefined && this.cancelled.has(idKey(related))) return;
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending.length = 0;
    this.line = [];
    this.oversized = undefined;
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.pending.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    this.pump();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Whether reading must wait: too many requests being answered, or the peer not reading. */
  private held(): boolean {
    return this.closed || this.inflight.size >= MAX_INFLIGHT_REQUESTS || this.drained !== undefined;
  }

  /** Frames what was read while the session is within its bounds; pauses or resumes the input. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending.length > 0 && !this.held()) {
        const rest = this.frame(this.pending.shift()!);
        if (rest) this.pending.unshift(rest);
      }
    } finally {
      this.pumping = false;
    }
    if (this.closed) return;
    const hold = this.held();
    if (hold === this.paused) return;
    this.paused = hold;
    if (hold) this.input.pause();
    else this.input.resume();
  }

  /** Takes lines out of `chunk`; returns what is left when the session reached a bound mid-chunk. */
  private frame(chunk: Buffer): Buffer | undefined {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline < 0 ? chunk.length : newline));
      if (newline < 0) return undefined;
      start = newline + 1;
      this.endLine();
      if (this.held() && start < chunk.length) return chunk.subarray(start);
    }
    return undefined;
  }

  /** Adds a part of the current line, switching to skipping once the line passes the cap. */
  private take(part: Buffer): void {
    if (this.oversized) {
      this.oversized.bytes += part.length;
      this.oversized.scanner.feed(part);
      return;
    }
    if (this.lineBytes + part.length <= MAX_LINE_MESSAGE_BYTES) {
      if (part.length > 0) this.line.push(part);
      this.lineBytes += part.length;
      return;
    }
    const scanner = new TopLevelIdScanner();
    for (const earlier of this.line) scanner.feed(earlier);
    scanner.feed(part);
    this.oversized = { bytes: this.lineBytes + part.length, scanner };
    this.line = [];
    this.lineBytes = 0;
  }

  /** A newline: answers the skipped oversized message, or handles the line. */
  private endLine(): void {
    const oversized = this.oversized;
    if (oversized) {
      this.oversized = undefined;
      const id = oversized.scanner.id ?? null;
      const size = `${oversized.bytes} bytes`;
      this.options.log(`refused an MCP message of ${size} (${id === null ? 'no id recovered' : `id ${JSON.stringify(id)}`}): over the ${byteSizeText(MAX_LINE_MESSAGE_BYTES)} limit of one message; answered with an error, the session goes on`);
      this.reply(
        id,
        INVALID_REQUEST,
        `Invalid Request: the message is ${size}, over the ${byteSizeText(MAX_LINE_MESSAGE_BYTES)} limit of one MCP message; it was skipped. Send smaller arguments (a path instead of file contents, or several smaller calls)`,
      );
      return;
    }
    const buffer = this.line.length === 1 ? this.line[0]! : Buffer.concat(this.line, this.lineBytes);
    this.line = [];
    this.lineBytes = 0;
    this.handleLine(buffer);
  }

  private handleLine(buffer: Buffer): void {
    let text = buffer.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.refuse(null, PARSE_ERROR, `Parse error: the line is not JSON (${clip((error as Error).message)}); send one JSON-RPC message per line`);
      return;
    }
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      this.refuse(topLevelId(value), INVALID_REQUEST, `Invalid Request: ${tooDeepMessage('the message')}`);
      return;
    }
    if (Array.isArray(value)) {
      this.refuse(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC batch (an array); this transport takes one message per line (MCP has no batches since 2025-06-18)');
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(value);
    if (!checked.success) {
      this.refuse(topLevelId(value), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message (a request needs "jsonrpc": "2.0", an "id" and a "method"; a notification a "method"; a response an "id" and a "result" or "error")');
      return;
    }
    this.deliver(checked.data as JSONRPCMessage);
  }

  /** Hands a well-formed message to the server, within the lifecycle and the in-flight bound. */
  private deliver(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      const { method } = message;
      if (this.lifecycle === 'none' && method !== 'initialize' && method !== 'ping') {
        this.refuse(message.id, INVALID_REQUEST, `Invalid Request: ${method} before initialize; send initialize first (only ping is answered before it)`);
        return;
      }
      const key = idKey(message.id);
      if (this.inflight.has(key)) {
        this.refuse(message.id, INVALID_REQUEST, `Invalid Request: request id ${JSON.stringify(message.id)} is already in flight in this session; use a new id`);
        return;
      }
      if (method === 'initialize') {
        this.lifecycle = 'initializing';
        this.initializeKey = key;
      }
      this.inflight.add(key);
    } else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined && this.inflight.has(idKey(requestId))) this.cancelled.add(idKey(requestId));
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers a malformed line with an error and notes it in the log (the first few per session). */
  private refuse(id: RequestId | null, code: number, message: string): void {
    this.refusals++;
    if (this.refusals <= LOGGED_REFUSALS) this.options.log(`refused a line (${id === null ? 'no id' : `id ${JSON.stringify(id)}`}): ${message}`);
    if (this.refusals === LOGGED_REFUSALS) this.options.log('further refused lines of this session are answered but not logged');
    this.reply(id, code, message);
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    void this.write(rpcError(id, code, message));
  }

  /** Writes one message line; resolves once written, or once the backed-up output drains (or closes). */
  private write(message: unknown): Promise<void> {
    if (this.closed || this.output.destroyed || this.output.writableEnded) return Promise.resolve();
    if (this.output.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    this.drained ??= new Promise<void>((resolve) => {
      const done = (): void => {
        this.output.off('drain', done);
        this.output.off('close', done);
        this.drained = undefined;
        resolve();
        this.pump();
      };
      this.output.on('drain', done);
      this.output.on('close', done);
    });
    return this.drained;
  }
}
