/**
 * Server-sent event streams with a bounded backlog: a subscriber whose socket is backed up gets at
 * most `capacity` queued events; later ones are dropped and counted (and announced once the socket
 * drains), so one slow reader can never make the server buffer without bound.
 */
import type { Response } from 'express';

/** The part of a writable response a channel uses (a fake in unit tests). */
export interface SseSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  end(): unknown;
}

/** Pending events one subscriber may have queued while its socket is backed up. */
export const SSE_BUFFER = 16;

/** One SSE subscriber. */
export class SseChannel {
  private readonly queue: string[] = [];
  private backedUp = false;
  private droppedSinceDrain = 0;
  private ended = false;
  /** Events dropped over the channel's life. */
  dropped = 0;

  constructor(
    private readonly sink: SseSink,
    private readonly capacity = SSE_BUFFER,
  ) {}

  /** Whether `end()` was called. */
  get closed(): boolean {
    return this.ended;
  }

  /** Sends one event (`event`, optional `id`, one `data` line of JSON text); queues or drops it when backed up. */
  event(name: string, data: string, id?: string): void {
    this.push(`event: ${name}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`);
  }

  /** Sends a comment line; skipped while backed up (a keep-alive behind queued events is pointless). */
  comment(text: string): void {
    if (this.ended || this.backedUp) return;
    this.write(`: ${text}\n\n`);
  }

  /** Ends the stream. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.sink.end();
  }

  private push(frame: string): void {
    if (this.ended) return;
    if (!this.backedUp) {
      this.write(frame);
      return;
    }
    if (this.queue.length < this.capacity) {
      this.queue.push(frame);
    } else {
      this.dropped++;
      this.droppedSinceDrain++;
    }
  }

  private write(frame: string): void {
    if (this.sink.write(frame)) return;
    // The kernel buffer is full: hold further events until the socket drains.
    this.backedUp = true;
    this.sink.once('drain', () => this.drain());
  }

  private drain(): void {
    if (this.ended) return;
    this.backedUp = false;
    while (this.queue.length > 0 && !this.backedUp) this.write(this.queue.shift()!);
    if (!this.backedUp && this.droppedSinceDrain > 0) {
      const n = this.droppedSinceDrain;
      this.droppedSinceDrain = 0;
      this.write(`: dropped ${n} event${n === 1 ? '' : 's'}\n\n`);
    }
  }
}

/** Sends the SSE response head (no caching, no proxy buffering) and returns a channel over `res`. */
export function openSse(res: Response, extraHeaders: Record<string, string> = {}, capacity = SSE_BUFFER): SseChannel {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx and similar proxies would otherwise hold events back.
    'X-Accel-Buffering': 'no',
    ...extraHeaders,
  });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  return new SseChannel(res, capacity);
}
