/**
 * `gortex review` output: text for people, SARIF 2.1.0 for CI systems and code-scanning UIs (one
 * run, the rulepack's rules as the driver's rules, each finding a result with its line, level and
 * the fingerprint as a partial fingerprint so re-runs match results across line shifts).
 */
import { packageVersion } from '../support/package-root';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** The review for people: the verdict, then one block per finding. */
export function renderReviewText(r: Json): string {
  const counts = Object.entries(r.counts ?? {}).map(([sev, n]) => `${n} ${sev}`);
  const findings = (r.findings ?? []) as Json[];
  const head = `${r.verdict} — ${findings.length === 0 ? 'no findings' : `${findings.length} finding${findings.length === 1 ? '' : 's'} (${counts.join(', ')})`}`;
  const notes = [
    r.reviewed ? `reviewed: ${r.reviewed}` : undefined,
    r.dropped_count ? `${r.dropped_count} dropped by the graph pass` : undefined,
    r.pre_existing_count ? `${r.pre_existing_count} pre-existing (not counted)` : undefined,
    r.suppressed_count ? `${r.suppressed_count} suppressed` : undefined,
    r.note,
    r.llm ? (r.llm.used ? `model ${r.llm.model}: ${r.llm.findings} finding${r.llm.findings === 1 ? '' : 's'} added${r.llm.unlocated ? `, ${r.llm.unlocated} it could not place on a line` : ''}` : `model not used: ${r.llm.error ?? r.llm.reason}`) : undefined,
  ].filter(Boolean);
  const lines = [head, ...notes.map((n) => `  ${n}`)];
  for (const f of findings) {
    lines.push('', `${f.path}:${f.line}:${f.column + 1}  ${f.severity}  ${f.rule}`, `  ${f.message}`, `  > ${f.source}`, `  fix: ${f.fix}`);
  }
  for (const s of (r.files_skipped ?? []) as string[]) lines.push(`skipped ${s}`);
  if (r.truncated) lines.push('', '… more findings (raise --limit)');
  return lines.join('\n');
}

const LEVEL: Record<string, string> = { critical: 'error', error: 'error', warning: 'warning', info: 'note' };

/** The review as a SARIF 2.1.0 log. Columns are 1-based; gortex counts them in bytes. */
export function renderReviewSarif(r: Json): string {
  const rules = (r.rules ?? []) as Json[];
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'gortex',
            version: packageVersion(),
            informationUri: 'https://github.com/gortexhq/gortex',
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.id,
              shortDescription: { text: rule.title },
              defaultConfiguration: { level: LEVEL[rule.severity] ?? 'warning' },
              properties: { category: rule.category, severity: rule.severity, languages: rule.languages, tags: [rule.category] },
            })),
          },
        },
        results: ((r.findings ?? []) as Json[]).map((f) => ({
          ruleId: f.rule,
          ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
          level: LEVEL[f.severity] ?? 'warning',
          message: { text: `${f.message}. Fix: ${f.fix}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.path, uriBaseId: '%SRCROOT%' },
                region: { startLine: f.line, startColumn: f.column + 1, endLine: f.end_line },
              },
              ...(f.symbol ? { logicalLocations: [{ fullyQualifiedName: f.symbol }] } : {}),
            },
          ],
          partialFingerprints: { 'gortexFingerprint/v1': f.fingerprint },
          properties: { severity: f.severity, category: f.category, ...(f.grounding ? { grounding: f.grounding } : {}) },
        })),
        properties: { verdict: r.verdict, dropped: r.dropped_count ?? 0, pre_existing: r.pre_existing_count ?? 0, suppressed: r.suppressed_count ?? 0 },
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
