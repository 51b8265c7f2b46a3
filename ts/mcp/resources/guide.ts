/**
 * The usage guide: how an agent should use gortex (which tool answers which question, how far to
 * trust an answer, how to change code safely), served whole (`gortex://guide`) and by topic
 * (`gortex://guide/{topic}`). Prose only; a test checks every tool it names exists.
 */
import { ANALYZE_KIND_SCHEMAS, SEARCH_AST_DETECTORS } from '../../engine/tool-schemas';
import { SERVER_SPECS } from '../../lsp/specs';
import { facadeDomains } from '../../tools/facade';
import { LLM_HOWTO } from '../../tools/llm';
import { URI_SCHEME } from './resource';

/** Guide topics, in reading order, each a self-contained markdown section. */
export const GUIDE_TOPICS: Readonly<Record<string, { title: string; body: string }>> = {
  search: {
    title: 'Finding code',
    body: `Pick the search by what you know:

- **A name or a concept** → \`search_symbols\`. An identifier that names a symbol exactly comes first
  (\`tier: "exact"\`); otherwise rows are ranked by BM25 with prefix and typo tolerance, then by
  definition kind, fan-in, export, path and test evidence. Narrow inline: \`kind:function\`,
  \`flavor:class\`, \`lang:go\`, \`path:src/util\`. A camelCase identifier with no match is searched again
  word by word (\`decomposed: true\`). A description of four or more words is read as a sentence
  (\`read_as: "sentence"\`) and matched mostly against doc comments; \`read_as: "names"\` turns that
  off. \`explain: true\` adds \`signals\`, the breakdown of each score.
- **Literal text** (an error message, a config key, a string) → \`search_text\`; \`regexp: true\` for a
  Rust-syntax regex, \`path\` for a glob (\`src/**/*.ts\`) or a prefix. Each hit names the innermost
  symbol holding the line (\`symbol_id\`), so you can jump straight to \`get_symbol_source\`.
- **A file name** → \`find_files\` (\`query\` for a basename or path fragment, \`glob\` for patterns).
  Files are not in the symbol index, so \`search_symbols\` never returns them.
- **A use site you are looking at** (\`fooBar(\`, \`.save(\`) → \`find_declaration\` returns the declaration
  the resolver tied it to, or lists the site as unresolved.
- **Structural constraints** (all exported interfaces under \`pkg/\`, functions called by at least 5
  others) → \`winnow_symbols\` with \`kind\`, \`lang\`, \`path_prefix\`, \`min_fan_in\`, \`min_fan_out\`,
  \`exported\`, \`text_match\`.

Every row carries an \`id\` (\`<repo>/<path>::<Owner>.<name>\`). Pass ids to the next call: a bare name
that matches several symbols is refused with the candidate ids (code \`ambiguous\`), an unknown one with
suggestions (code \`not_found\`).`,
  },
  navigation: {
    title: 'Reading and walking the graph',
    body: `- **One symbol**: \`get_symbol\` (signature, doc, owner, edge counts), \`get_symbol_source\` (its own
  lines, optionally with \`context_lines\`) — cheaper than \`read_file\` on the whole file.
- **One file**: \`get_file_summary\` (symbols with nesting, imports and how each resolved, importers count),
  \`read_file\` (a line range; repository files only).
- **Who uses it**: \`get_callers\` (\`depth\` up to 5), \`find_usages\` (every reference with its \`context\`:
  call, parameter_type, return_type, field, type, value, import), \`get_dependents\` (all usage kinds by
  level — the blast radius; a file path gives file-level importers).
- **What it uses**: \`get_call_chain\` (forward calls, with the calls the resolver could not bind),
  \`get_dependencies\`.
- **Types**: \`find_implementations\`, \`find_overrides\` (\`parents\` / \`children\`), \`get_class_hierarchy\`.
- **Neighbourhoods and paths**: \`get_cluster\` (usage neighbourhood), \`walk_graph\` (token-budgeted
  traversal over chosen edge kinds), \`trace_path\` (shortest call paths, or a diagnosis of why there is
  none), \`find_import_path\` (import chain between two files).
- **Ad-hoc questions**: \`graph_query\`, a pipeline of at most five stages:
  \`nodes kind=interface name~Handler | traverse implements in | filter path=src/ | sort fan_in desc | limit 10\`.
- **Size and health**: \`graph_stats\` and \`index_health\` (also served as the \`gortex://stats\` and
  \`gortex://index-health\` resources, the same answers), and the \`gortex://report\` resource.

Results are deterministic and capped (\`limit\`); \`truncated: true\` means more rows exist.`,
  },
  'tiers-and-caveats': {
    title: 'How far to trust an answer',
    body: `Every edge has a provenance tier (\`origin\`), strongest first:

| tier | meaning |
|---|---|
| \`lsp_resolved\` | a language server named the target (enrichment on; see providers) |
| \`lsp_dispatch\` | a language server bound an interface call to an implementation |
| \`ast_resolved\` | a unique structural target: same file, import evidence, same package, a declared or constructed receiver type |
| \`ast_inferred\` | the receiver's type was inferred from a called function's declared return type |
| \`text_matched\` | name only: the single same-language candidate of that name in the repository |

\`speculative\` is part of the vocabulary but nothing produces it yet. References weaker than \`text_matched\` stay unresolved (\`unresolved::name\`) with a candidate
count instead of becoming guessed edges; \`get_call_chain\` lists them.

- Without \`min_tier\`, name-only rows are hidden when stronger rows exist; \`name_only_suppressed\` says how
  many. Pass \`min_tier: "text_matched"\` to see them.
- With \`min_tier\`, weaker rows are dropped and \`tier_filtered\` reports how many and the strongest tier
  the full answer had.

\`get_callers\`, \`find_usages\` and \`get_dependents\` attach a \`caveat\` when a thin answer must not be
taken at face value:

- \`likely_unused\` — indexed normally but nothing uses it. Before deleting, \`search_text\` for the name:
  reflection, string dispatch, other repositories and generated code are invisible to the graph.
- \`possible_extraction_gap\` — no edges at all; the extractor probably missed something. Confirm with
  \`search_text\`.
- \`coverage_incomplete\` — the only evidence is import-level, unresolved same-name references or name-only
  matches (or calls reach it through a supertype). Treat the caller list as a lower bound.

Exported symbols may have callers outside this repository that no query can see.`,
  },
  workflow: {
    title: 'Changing code safely',
    body: `gortex reads; you edit with your own tools. A typical change:

1. **Locate** the code (\`search_symbols\`, \`search_text\`) and read only what you need
   (\`get_symbol_source\`, \`get_file_summary\`).
2. **Measure the blast radius** before touching a signature: \`get_callers\` and \`get_dependents\`
   (\`depth: 2\`), \`find_implementations\` / \`find_overrides\` for interfaces and methods, and heed each
   \`caveat\`. The \`safe_to_change\` prompt does all of this for a list of ids, with risk notes.
3. **Find the tests**: \`get_dependents\` with \`kinds: "tests"\` lists tests that call the symbol directly;
   \`get_callers\` with a larger \`depth\` shows tests that reach it through other code (\`is_test\` rows).
4. **Edit.** The session watches the repository: a burst of file changes is re-indexed incrementally
   after a short quiet period, and the next query waits for that refresh, so answers follow your edits
   (unless the server was started with \`--no-watch\`). Clients subscribed to a resource get
   \`notifications/resources/updated\` after each re-index.
5. **Re-check** callers of anything whose signature changed, then use the \`pre_commit\` prompt: it lists
   the changed files (git), the symbols the diff touches, their dependents and the tests to run.`,
  },
  capabilities: {
    title: 'The compact surface and capabilities',
    get body() {
      const rows = facadeDomains()
        .filter((d) => Object.keys(d.operations).length > 0)
        .map((d) => `| \`${d.name}\` | ${d.effect} | ${d.summary} | ${Object.keys(d.operations).length} |`);
      return `A named MCP client gets the compact surface: 21 domain tools, each running one of several
operations (\`{"operation": "<op>", "arguments": {…}}\`; a domain with a default operation takes its
arguments directly). Every domain is effect-homogeneous: a \`read\` domain never writes.

- \`capabilities\` with no arguments lists every domain and its operations; \`domain\` narrows it; \`domain\`
  + \`operation\` + \`detail: "schema"\` gives that operation's exact input schema, the tool it runs and a
  \`schema_hash\` to cache by. An operation this build cannot run is listed \`available: false\` and
  refused with \`not_available\`, never faked.
- Each answer carries \`gortex_facade\` in its \`_meta\`: the domain, the operation and the canonical
  tool, so a transcript shows what ran.
- \`GORTEX_TOOLS\` (or \`--tools\`) picks another surface: \`full\` lists every tool, \`core\` the
  dev-cycle workhorses with the rest deferred behind \`tools_search\`.

| domain | effect | what it is for | operations |
|---|---|---|---:|
${rows.join('\n')}`;
    },
  },
  analyze: {
    title: 'The analyze catalogue',
    get body() {
      const kinds = ANALYZE_KIND_SCHEMAS.filter((k) => k.kind !== 'kinds' && !k.alias_of);
      const aliases = ANALYZE_KIND_SCHEMAS.filter((k) => k.alias_of).map((k) => `\`${k.kind}\` (= \`${k.alias_of}\`)`);
      return `\`analyze\` runs one whole-repository analysis per call: \`{"kind": "<kind>", …}\` with the kind's own
arguments (\`analyze {"kind": "kinds"}\` lists them with their input schemas; over the compact surface each
kind is an operation of the \`analyze\` domain). Analyses over the syntax trees or the file text say so
(\`evidence\`), and every list is capped by \`limit\` with \`truncated\` and a \`total\`.

${kinds.map((k) => `- \`${k.kind}\` — ${k.description}`).join('\n')}
${aliases.length > 0 ? `\nAliases: ${aliases.join(', ')}.` : ''}`;
    },
  },
  search_ast: {
    title: 'Structural search (search_ast)',
    get body() {
      const rows = SEARCH_AST_DETECTORS.map(
        (d) => `| \`${d.id}\` | ${d.alias_of ? `alias of \`${d.alias_of}\`: ` : ''}${d.title} | ${d.languages.join(', ')} |`,
      );
      return `\`search_ast\` matches syntax, not text: a tree-sitter query over every indexed file of one language,
each match with its captures and the innermost symbol holding it.

- **A pattern**: \`{"pattern": "(call_expression function: (identifier) @f (#eq? @f \\"eval\\"))", "language":
  "typescript"}\`. Captures are named \`@name\`; predicates \`#eq?\`, \`#match?\`, \`#any-of?\` filter them. A
  pattern that does not compile for the language is refused with where (pattern line and column) and
  why (a syntax error, an unknown node type or field, an impossible structure).
- **A bundled detector**: \`{"detector": "<id>"}\` runs the detector in every language it supports — the
  same code the review rules run, so a finding here is a finding there.
- Narrow with \`path_prefix\`; \`limit\` caps the matches and \`timeout_ms\` the time (the answer says
  when it was cut).

| detector | finds | languages |
|---|---|---|
${rows.join('\n')}`;
    },
  },
  tokens: {
    title: 'Token economy',
    body: `Every answer is sized for a context window, and what it saves is booked.

- **Budgets**: list tools take \`limit\`; tools returning text take \`max_bytes\` or \`max_tokens\` (four bytes a
  token, the estimate used everywhere) and say \`truncated: true\` when they cut. \`get_symbol_source\` with
  \`compress_bodies\` stubs bodies and \`max_lines\` keeps the most telling lines; \`smart_context\` and
  \`get_editing_context\` fill a budget in priority order.
- **Reading less**: \`get_symbol_source\` returns one symbol and \`tokens_saved\` against reading its whole
  file; \`get_file_summary\` is a file's outline; \`search_text\` hits name their enclosing symbol.
- **GCX1**: \`format: "gcx"\` (or a GCX-capable client) turns an answer into compact tables — column
  headers once, rows as lines — smaller than the JSON, and it decodes back to the same values.
- **The ledger**: each answer books the tokens it returned against whole-file reads of the files it
  points into. \`graph_stats\` (and \`gortex://session\`) report this session's and the lifetime totals;
  \`gortex savings\` prints them by day, repository and tool. \`GORTEX_SAVINGS=off\` stops the booking.`,
  },
  resources: {
    title: 'Resources',
    body: `Resources are read-only views, cheaper to subscribe to than to poll a tool. Those that show a tool's
answer are that answer, through the same call pipeline.

- \`gortex://session\` — this session: repository, version, re-index count, subscriptions, token savings.
- \`gortex://stats\` (= \`graph_stats\`), \`gortex://index-health\` (= \`index_health\`), \`gortex://schema\` (node
  kinds, flavors, edge kinds, tiers with counts; id formats; caveat classes).
- \`gortex://workspace\`, \`gortex://repos\`, \`gortex://active-project\` — what this session can reach.
- \`gortex://communities\`, \`gortex://processes\`, \`gortex://god-nodes\` (the top hotspots), \`gortex://surprises\`
  (cycles, dead code, hotspots crossing communities), \`gortex://questions\` (TODO-style comments),
  \`gortex://report\` (one overview), \`gortex://audit\` (agent rules files checked against the repository).
- \`gortex://guide\` and \`gortex://guide/{topic}\` — this guide; \`gortex://community/{id}\` and
  \`gortex://process/{id}\` — one community or flow by id or label.

Subscribe to a resource to get \`notifications/resources/updated\` after each re-index; completions offer
the template parameters (topics, community labels, entry names).`,
  },
  providers: {
    title: 'Providers: language models and language servers',
    get body() {
      const servers = Object.values(SERVER_SPECS).map(
        (s) => `| ${s.name} | \`${s.command[0]}\` | ${Object.keys(s.languageIds).join(' ')} | ${s.install} |`,
      );
      return `Everything above runs locally from the graph; two kinds of outside program can add to it.

**Language models** (optional, off unless configured): an OpenAI-compatible chat-completions endpoint —
a local server or a hosted one. To use one, ${LLM_HOWTO}. A repository's own config cannot set it. Text
sent is secret-redacted first. What asks it: \`ask\` (a research agent over the read-only tools, its
citations checked against the graph), \`review\` / \`analyze kind=review\` with \`use_llm\` (findings
relocated to exact lines, capped at warning, marked \`grounded: false\`), \`critique_review\`, and
\`triage_prs\` with \`use_llm\`. Without a model each says so and answers from the graph alone.

**Language servers** (optional): with \`lsp.enrich: true\` (or \`GORTEX_LSP_ENRICH=1\`) the server of each
language confirms, corrects or adds call edges (\`lsp_resolved\`, \`lsp_dispatch\`); \`index_health\` reports
each server's enrichment state, so a partial pass is never mistaken for a complete one.

| server | command | files | install |
|---|---|---|---|
${servers.join('\n')}`;
    },
  },
};

/** One guide topic as a markdown section (`topic` must be a key of `GUIDE_TOPICS`). */
export function guideSection(topic: string): string {
  const section = GUIDE_TOPICS[topic]!;
  return `## ${section.title}\n\n${section.body}\n`;
}

/** The whole guide: an index of the topic URIs, then every section in reading order. */
export function fullGuide(): string {
  const topics = Object.keys(GUIDE_TOPICS);
  const index = topics.map((t) => `- \`${URI_SCHEME}guide/${t}\` — ${GUIDE_TOPICS[t]!.title}`).join('\n');
  return `# Using gortex\n\ngortex answers code questions from a graph of this repository (symbols, calls, references, imports,\ntypes, tests), kept current while the session runs. Sections, also readable one at a time:\n\n${index}\n\n${topics.map(guideSection).join('\n')}`;
}
