/** Files editors and tools write for a moment beside the real one: never a change worth reporting. */

/**
 * Basename patterns of temporaries: vim swap files (`.x.swp`, `.swo`, …) and its write test
 * (`4913`), backups (`x~`), `sed -i` work files (`sedAbC123`), Emacs autosaves and locks
 * (`#x#`, `.#x`), JetBrains safe-write copies (`x___jb_tmp___`, `x___jb_old___`) and Kate swaps.
 */
const TEMP_BASENAMES: readonly RegExp[] = [
  /^\..*\.sw[a-p]$/,
  /^4913$/,
  /~$/,
  /^sed[A-Za-z0-9]{6}$/,
  /^#.*#$/,
  /^\.#/,
  /___jb_(?:tmp|old|bak)___$/,
  /\.kate-swp$/,
];

/** Whether a (repo-relative) path names an editor's or tool's temporary file. */
export function isEditorTempFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return TEMP_BASENAMES.some((pattern) => pattern.test(base));
}
