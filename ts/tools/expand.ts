/**
 * Query expansion for `search_symbols` (`expand`, `vocab_anchored`): the configured model is asked
 * for other words the code may use for what the query describes (a user says "payment", the code
 * says `charge`), each word is searched, and its hits follow the query's own. With
 * `vocab_anchored` only words the repository's own symbol names use are kept — a model's guess
 * that names nothing here is dropped before it can pull in weak matches — and the answer lists
 * what was kept and dropped.
 */
import type { ToolContext } from '../workspace/context';
import { LLM_HOWTO, llmOf } from './llm';
import { ToolInputError } from './registry';

/** Words asked of the model at most. */
const MAX_TERMS = 8;
/** Hits per word looked at when checking it against the repository's names. */
const VOCAB_PROBE = 10;

type Row = { id?: string; name?: string } & Record<string, unknown>;
type Answer = { results?: Row[]; total?: number } & Record<string, unknown>;

/** The words of an identifier, lower-cased (`chargeCard` → charge, card; `HTTP_CLIENT` → http, client). */
export function identifierWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** The model's words for `query`, cleaned: single identifiers, not the query's own words. */
async function askTerms(ctx: ToolContext, query: string): Promise<{ terms: string[]; model: string }> {
  const llm = llmOf(ctx);
  if (!llm) throw new ToolInputError('unavailable', `expand and vocab_anchored ask a model for the words code uses: ${LLM_HOWTO}`);
  const reply = (await llm.json([
    {
      role: 'system',
      content:
        'You expand a code-search query. Give other single words or identifiers that source code implementing what the query describes would use in function, class or variable names (synonyms, the domain terms, common abbreviations). Answer JSON only: {"terms": ["word", ...]} with at most 8 terms, most likely first.',
    },
    { role: 'user', content: query },
  ])) as { terms?: unknown };
  const own = new Set(identifierWords(query));
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const t of Array.isArray(reply?.terms) ? reply.terms : []) {
    if (typeof t !== 'string') continue;
    const term = t.trim();
    if (!/^[A-Za-z_$][\w$]*$/.test(term) || own.has(term.toLowerCase()) || seen.has(term.toLowerCase())) continue;
    seen.add(term.toLowerCase());
    terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return { terms, model: llm.model };
}

/**
 * `search_symbols` with model expansion: `search` runs one query (the caller's arguments with
 * another query text); the query's hits come first, then each kept word's new hits marked `via`.
 */
export async function expandedSearch(ctx: ToolContext, args: Record<string, unknown>, anchored: boolean, search: (query: string, limit?: number) => Answer): Promise<Answer> {
  const query = String(args.query ?? '');
  const limit = typeof args.limit === 'number' ? args.limit : 20;
  const { terms, model } = await askTerms(ctx, query);
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const term of terms) {
    if (!anchored) {
      kept.push(term);
      continue;
    }
    const probe = search(term, VOCAB_PROBE).results ?? [];
    const word = term.toLowerCase();
    const named = probe.some((r) => typeof r.name === 'string' && (r.name.toLowerCase() === word || identifierWords(r.name).includes(word)));
    (named ? kept : dropped).push(term);
  }
  const base = search(query);
  const results: Row[] = [...(base.results ?? [])];
  const ids = new Set(results.map((r) => r.id));
  for (const term of kept) {
    if (results.length >= limit) break;
    for (const row of search(term).results ?? []) {
      if (results.length >= limit) break;
      if (ids.has(row.id)) continue;
      ids.add(row.id);
      results.push({ ...row, via: term });
    }
  }
  return {
    ...base,
    results,
    total: Math.max(base.total ?? 0, results.length),
    expansion: { model, vocab_anchored: anchored, terms: kept, ...(anchored ? { dropped } : {}) },
  };
}
