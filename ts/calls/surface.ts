/**
 * The tool surface, composed once for every door: the registry, the compact facade over it, name
 * lookup in a session's family, and the one listing of a tool that MCP `tools/list`,
 * `GET /v1/tools`, `gortex call --list` and the generated catalogue all show.
 */
import { ALL_TOOLS, FACADE_TOOLS } from '../tools/index';
import { inputSchema } from '../tools/meta';
import type { ToolDef } from '../tools/registry';
import type { ToolFamily } from '../workspace/context';

/** The registry tools (every legacy name). */
export const REGISTRY_TOOLS: readonly ToolDef[] = ALL_TOOLS;

/** The compact domain tools (`facade-v1`). */
export { FACADE_TOOLS };


/**
 * Every tool callable in a family, that family's own first: `explore` and `analyze` exist in both,
 * and a compact session means the compact one. Names are unique in the answer.
 */
export function callableTools(family: ToolFamily = 'registry'): readonly ToolDef[] {
  return family === 'facade' ? FACADE_FIRST : REGISTRY_FIRST;
}

const union = (first: readonly ToolDef[], second: readonly ToolDef[]): readonly ToolDef[] => {
  const names = new Set(first.map((t) => t.name));
  return [...first, ...second.filter((t) => !names.has(t.name))];
};
const REGISTRY_FIRST = union(REGISTRY_TOOLS, FACADE_TOOLS);
const FACADE_FIRST = union(FACADE_TOOLS, REGISTRY_TOOLS);


/** The tool a name means in a family, or undefined. */
export function findTool(name: string, family: ToolFamily = 'registry'): ToolDef | undefined {
  return callableTools(family).find((t) => t.name === name);
}

/** Up to `max` tool names close to `name` (prefix, substring, small edits), best first. */
export function similarToolNames(name: string, family: ToolFamily = 'registry', max = 3): string[] {
  const wanted = name.toLowerCase();
  return callableTools(family)
    .map((t) => ({ name: t.name, distance: editDistance(wanted, t.name) }))
    .filter((c) => c.name.startsWith(wanted) || c.name.includes(wanted) || wanted.includes(c.name) || c.distance <= Math.max(2, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}

/** Levenshtein distance (names are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** One tool as every listing shows it. */
export interface ToolListing {
  name: string;
  description: string;
  category: string;
  effect: string;
  /** The JSON Schema of its arguments (the pipeline's own options are documented once, in the server instructions). */
  inputSchema: Record<string, unknown>;
  /** MCP tool annotations derived from the effect. */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/** The listing of one tool. */
export function toolListing(tool: ToolDef): ToolListing {
  return {
    name: tool.name,
    description: tool.description,
    category: tool.category,
    effect: tool.effect,
    inputSchema: inputSchema(tool),
    annotations: {
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect === 'local_write' || tool.effect === 'external_write',
      openWorldHint: tool.effect === 'external_write',
    },
  };
}
