/**
 * Push channels of one session: the tools that subscribe (`subscribe_diagnostics`, …) register a
 * channel here with the function that stops it; the door that owns the session (an MCP server over
 * stdio, the daemon socket or `/mcp`) delivers the notifications and ends every channel when the
 * session closes. Subscribing again to a channel replaces its filter; unsubscribing is idempotent.
 */

/** Sends one notification to the session's client (never throws; a gone client drops it). */
export type Notify = (method: string, params: Record<string, unknown>) => void;

/** One session's push channels. */
export class SessionChannels {
  private readonly active = new Map<string, () => void>();
  private closed = false;

  constructor(
    /** The session's id (the MCP session's). */
    readonly id: string,
    readonly notify: Notify,
  ) {}

  /** Starts `channel` with `start` (which returns how to stop it), replacing a running one. */
  subscribe(channel: string, start: () => () => void): void {
    if (this.closed) return;
    this.unsubscribe(channel);
    this.active.set(channel, start());
  }

  /** Stops `channel`; false when it was not running. */
  unsubscribe(channel: string): boolean {
    const stop = this.active.get(channel);
    if (!stop) return false;
    this.active.delete(channel);
    stop();
    return true;
  }

  /** Channels running now. */
  list(): string[] {
    return [...this.active.keys()].sort();
  }

  /** Ends every channel (the session closed); later subscriptions are ignored. */
  close(): void {
    this.closed = true;
    for (const channel of [...this.active.keys()]) this.unsubscribe(channel);
  }
}
