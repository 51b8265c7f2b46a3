/**
 * Help text of CLI flags that pass a query tool's argument through: taken from the schema generated
 * from the Rust argument types, so a flag's help cannot drift from what the tool accepts.
 */
import type { QueryToolName } from '../engine/engine';
import { queryToolSchema } from '../engine/tool-schemas';

/** The generated description of `tool`'s argument `arg`, with its accepted values when it has a closed set. */
export function argumentHelp(tool: QueryToolName, arg: string): string {
  const property = queryToolSchema(tool).input.properties?.[arg];
  if (!property) throw new Error(`${tool} has no argument "${arg}" in its generated schema (a CLI flag names it)`);
  const description = typeof property.description === 'string' ? property.description.replace(/\.$/, '') : arg;
  const values = Array.isArray(property.enum) ? ` (${property.enum.join(', ')})` : '';
  return `${description}${values}`;
}
