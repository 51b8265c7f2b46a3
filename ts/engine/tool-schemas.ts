/**
 * The schemas of the engine's query tools, generated from the Rust argument and result types
 * (`generated/tool-schemas.json`; see ARCHITECTURE.md, "Schemas"): per tool its description, its
 * input JSON Schema (self-contained) and its output schema, and the same per `analyze` kind.
 */
import document from './generated/tool-schemas.json';
import type { AnalyzeKind, QueryToolName } from './generated/query-types';

/** A JSON Schema, as the generated document holds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** A tool's (or kind's) input: an object of named arguments. */
export interface InputSchema extends JsonSchema {
  type: 'object';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** The Rust argument type it was derived from. */
  title?: string;
}

/** One query tool `Engine.query` runs. */
export interface ToolSchema {
  name: QueryToolName;
  /** What an agent reads to decide whether to call it. */
  description: string;
  input: InputSchema;
  /** The answer's schema (a `$ref` into `definitions`, or a union of them). */
  output: JsonSchema;
}

/** One `analyze` kind (an alias names the kind it runs). */
export interface AnalyzeKindSchema {
  kind: AnalyzeKind;
  description: string;
  alias_of?: AnalyzeKind;
  input: InputSchema;
  output: JsonSchema;
}

/** One bundled `search_ast` detector (a review rule, an alias of one, or a pattern detector). */
export interface AstDetector {
  id: string;
  /** What it finds, in one line. */
  title: string;
  languages: string[];
  alias_of?: string;
}

interface SchemaDocument {
  tools: ToolSchema[];
  analyze_kinds: AnalyzeKindSchema[];
  search_ast_detectors: AstDetector[];
  $defs: Record<string, JsonSchema>;
}

const schemas = document as unknown as SchemaDocument;

/** Every query tool, in the engine's dispatcher order. */
export const QUERY_TOOL_SCHEMAS: readonly ToolSchema[] = schemas.tools;

/** Every `analyze` kind in the engine's order, then its aliases and `kinds`. */
export const ANALYZE_KIND_SCHEMAS: readonly AnalyzeKindSchema[] = schemas.analyze_kinds;

/** Every detector `search_ast` bundles, in the engine's order. */
export const SEARCH_AST_DETECTORS: readonly AstDetector[] = schemas.search_ast_detectors;

/** The named types output schemas refer to (`#/$defs/<name>`). */
export const SCHEMA_DEFINITIONS: Readonly<Record<string, JsonSchema>> = schemas.$defs;

/** The schema of query tool `name`. */
export function queryToolSchema(name: QueryToolName): ToolSchema {
  const schema = QUERY_TOOL_SCHEMAS.find((t) => t.name === name);
  if (!schema) throw new Error(`no generated schema for query tool "${name}" (regenerate ts/engine/generated)`);
  return schema;
}
