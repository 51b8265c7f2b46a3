/**
 * Views over the generated query types (`generated/query-types.ts`) for the places that want a
 * narrower or re-keyed shape, and the one fact about their values the schemas do not carry.
 * Nothing here restates a field: every type is computed from the generated ones.
 */
import type { GetCallersResult, HealthComponent, Language } from './generated/query-types';

/** Documents and configuration: indexed for their text and structure, no call graph (the engine's `Language::is_code` is false). */
export const DOCUMENT_LANGUAGES: ReadonlySet<string> = new Set<Language>(['markdown', 'json', 'yaml', 'toml', 'dockerfile', 'proto', 'sql', 'text']);

/** Name of a `health_score` component. */
export type HealthComponentName = HealthComponent['name'];

/** The raw measurements behind each `health_score` component, by component name. */
export type HealthMeasures = { [N in HealthComponentName]: Extract<HealthComponent, { name: N }>['measure'] };

/** The provenance report a tiered result carries (it is flattened into each of them). */
export type TierReport = Pick<GetCallersResult, 'tier_filtered' | 'name_only_suppressed'>;
