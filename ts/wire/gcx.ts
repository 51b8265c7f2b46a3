/**
 * GCX1, the compact wire format for tool results: sections of tab-separated rows, most useful
 * fields first, scalars in the header. `encodeGcx` lays a tool's result out with the tool's own
 * layout (`gcx-layouts.ts`) or the generic fallback; `decodeGcx` reads any GCX1 payload back into
 * sections of strings (`gcx-codec.ts` has the grammar).
 */
import { isGcxToken, writeGcx } from './gcx-codec';
import { layoutSections } from './gcx-layouts';

export { decodeGcx, gcxToObjects, GcxDecodeError, GcxVersionError, GCX_VERSION, type GcxSection } from './gcx-codec';
export { GCX_LAYOUT_TOOLS, gcxCell, type ReadFileResult, type SymbolSourceResult } from './gcx-layouts';

/**
 * Encodes one tool result as GCX1 text (every line LF-terminated). Throws `TypeError` when `tool`
 * cannot be a section name (empty, or holding whitespace, `,`, `=` or `\`).
 */
export function encodeGcx(tool: string, result: unknown): string {
  if (!isGcxToken(tool)) {
    throw new TypeError(`GCX tool name ${JSON.stringify(tool)} must be non-empty without whitespace, ",", "=" or "\\"`);
  }
  return writeGcx(layoutSections(tool, result));
}
