/**
 * Argument and result shapes of `analyze` (one kind per analysis) and of the analysis tools,
 * mirroring the Rust serde structs (`crates/gortex-search/src/sites.rs`,
 * `crates/gortex-analysis`, `crates/gortex-clones`) field for field.
 */
import type { NodeSummary } from './query-types';

// ---------------------------------------------------------------------------------------------
// Text-sourced kinds (routes, env_var_users, todos)
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=todos`. */
export interface TodosArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  /** Tags to report (default TODO, FIXME, HACK, XXX, BUG, QUESTION). */
  tags?: string[];
  limit?: number;
}

/** Result of `analyze kind=todos`. */
export interface TodosResult {
  total: number;
  by_tag: Record<string, number>;
  by_assignee: Record<string, number>;
  todos: { tag: string; assignee?: string; text: string; path: string; line: number; symbol?: NodeSummary }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

/** Arguments of `analyze kind=env_var_users`. */
export interface EnvVarUsersArgs {
  /** Only this variable. */
  name?: string;
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  limit?: number;
}

/** Result of `analyze kind=env_var_users`. */
export interface EnvVarUsersResult {
  total_variables: number;
  total_reads: number;
  variables: { name: string; reads: number; files: number; sites: { path: string; line: number; symbol?: NodeSummary }[] }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

/** Arguments of `analyze kind=routes`. */
export interface RoutesArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  /** Only this HTTP method. */
  method?: string;
  /** Only routes whose path contains this text. */
  route?: string;
  limit?: number;
}

/** Result of `analyze kind=routes`. */
export interface RoutesResult {
  total: number;
  by_framework: Record<string, number>;
  routes: {
    method: string;
    route: string;
    framework: 'express' | 'fastapi/flask' | 'gin' | 'net/http' | 'spring';
    path: string;
    line: number;
    handler?: NodeSummary;
    registered_in?: NodeSummary;
  }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

// ---------------------------------------------------------------------------------------------
// Graph-sourced kinds
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=coverage_gaps` (alias `untested`). */
export interface CoverageGapsArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  symbol_kind?: 'function' | 'method';
  exported_only?: boolean;
  limit?: number;
}

/** Result of `analyze kind=coverage_gaps`: functions and methods no test reaches, riskiest first. */
export interface CoverageGapsResult {
  symbols: (NodeSummary & { fan_in: number })[];
  total: number;
  examined: number;
  /** Share of examined symbols some test reaches (0–1). */
  tested_ratio: number;
  truncated: boolean;
  evidence: 'graph';
}

// ---------------------------------------------------------------------------------------------
// analyze
// ---------------------------------------------------------------------------------------------

/** Each `analyze` kind's arguments and result. */
export interface AnalyzeKindMap {
  todos: { args: TodosArgs; result: TodosResult };
  env_var_users: { args: EnvVarUsersArgs; result: EnvVarUsersResult };
  routes: { args: RoutesArgs; result: RoutesResult };
  coverage_gaps: { args: CoverageGapsArgs; result: CoverageGapsResult };
  untested: { args: CoverageGapsArgs; result: CoverageGapsResult };
}

/** An `analyze` kind. */
export type AnalyzeKind = keyof AnalyzeKindMap;

/** Arguments of `analyze`: the kind plus that kind's own arguments. */
export type AnalyzeArgs = { [K in AnalyzeKind]: { kind: K } & AnalyzeKindMap[K]['args'] }[AnalyzeKind];

/** Result of `analyze` (the chosen kind's result). */
export type AnalyzeResult = AnalyzeKindMap[AnalyzeKind]['result'];
