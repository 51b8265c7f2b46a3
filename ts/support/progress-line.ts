/** A one-line live progress display for index passes, redrawn on a TTY at most ~10 times a second. */

/** One progress report of a long pass (the engine's `ProgressEvent` has this shape). */
export interface PassProgress {
  phase: string;
  done: number;
  total: number;
}

const MIN_REDRAW_MS = 100;
const BAR_WIDTH = 20;

/** Draws `phase [#####.....] done/total files  N files/s` in place on a TTY stream. */
export class ProgressLine {
  private lastDraw = -Infinity;
  private phase: string | undefined;
  private phaseStart = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records an event; redraws only if the last redraw is at least 100 ms old. */
  update(event: PassProgress): void {
    const now = this.now();
    if (event.phase !== this.phase) {
      this.phase = event.phase;
      this.phaseStart = now;
    }
    if (now - this.lastDraw < MIN_REDRAW_MS) return;
    this.lastDraw = now;
    this.draw(event, now);
  }

  /** Erases the line so the summary starts on a clean line. */
  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(event: PassProgress, now: number): void {
    const elapsedSeconds = (now - this.phaseStart) / 1000;
    const rate = elapsedSeconds > 0.05 ? Math.round(event.done / elapsedSeconds) : 0;
    let counts: string;
    let bar = '';
    if (event.total > 0) {
      const fraction = Math.min(1, event.done / event.total);
      const filled = Math.round(fraction * BAR_WIDTH);
      bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] `;
      counts = `${event.done}/${event.total} files`;
    } else {
      counts = `${event.done} files`;
    }
    let line = `${event.phase.padEnd(7)} ${bar}${counts}  ${rate} files/s`;
    const columns = this.stream.columns;
    if (columns !== undefined && columns > 1 && line.length >= columns) line = line.slice(0, columns - 1);
    this.stream.write(`\r\x1b[2K${line}`);
    this.drawn = true;
  }
}
