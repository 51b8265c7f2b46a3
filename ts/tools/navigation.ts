/** Following the graph from one symbol: who calls it, what it uses, what it implements. */
import { engineTool } from './common';

/** The navigation family (descriptions and arguments come from the engine's generated schemas). */
export const navigationTools = [
  engineTool('get_symbol', 'nav'),
  engineTool('get_file_summary', 'nav'),
  engineTool('get_dependencies', 'nav'),
  engineTool('get_dependents', 'nav'),
  engineTool('get_callers', 'nav'),
  engineTool('get_call_chain', 'nav'),
  engineTool('find_usages', 'nav'),
  engineTool('find_implementations', 'nav'),
  engineTool('find_overrides', 'nav'),
  engineTool('get_class_hierarchy', 'nav'),
  engineTool('get_cluster', 'nav'),
];
