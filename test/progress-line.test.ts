import { ProgressLine } from '../ts/support/progress-line';

/** A stand-in for process.stderr that records what is written (Node's stream, not ours). */
function recordingStream(columns?: number): NodeJS.WriteStream & { writes: string[] } {
  const writes: string[] = [];
  return { writes, columns, write: (chunk: string) => writes.push(chunk) > 0 } as unknown as NodeJS.WriteStream & {
    writes: string[];
  };
}

describe('ProgressLine', () => {
  test('redraws at most once per 100 ms and shows phase, counts and rate', () => {
    let now = 0;
    const stream = recordingStream();
    const line = new ProgressLine(stream, () => now);
    line.update({ phase: 'parse', done: 0, total: 200 });
    for (let done = 1; done <= 100; done++) {
      now += 10; // 100 events over 1 s
      line.update({ phase: 'parse', done, total: 200 });
    }
    expect(stream.writes.length).toBeGreaterThanOrEqual(10);
    expect(stream.writes.length).toBeLessThanOrEqual(11);
    const last = stream.writes[stream.writes.length - 1]!;
    expect(last).toContain('parse');
    expect(last).toContain('100/200 files');
    expect(last).toContain('100 files/s');
    expect(last).toContain('[##########..........]');
    line.clear();
    expect(stream.writes[stream.writes.length - 1]).toBe('\r\x1b[2K');
  });

  test('an unknown total shows a plain count and the line fits the terminal', () => {
    const stream = recordingStream(20);
    const line = new ProgressLine(stream, () => 1000);
    line.update({ phase: 'walk', done: 12345, total: 0 });
    const drawn = stream.writes[0]!.replace('\r\x1b[2K', '');
    expect(drawn.length).toBeLessThan(20);
    expect(drawn.startsWith('walk    12345')).toBe(true);
  });

  test('clear writes nothing when nothing was drawn', () => {
    const stream = recordingStream();
    new ProgressLine(stream).clear();
    expect(stream.writes).toEqual([]);
  });
});
