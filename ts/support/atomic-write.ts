/** Writing small state files (tracked repositories, scopes, the server roster, feedback) atomically. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Writes `text` to `file` through a temp file and a rename, creating the folder: a reader (or a
 * process killed mid-write) sees the old file or the new one, never half of one.
 */
export function writeFileAtomic(file: string, text: string, options: { mode?: number } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, options.mode !== undefined ? { mode: options.mode } : {});
  fs.renameSync(temp, file);
}
