// `gortex eval edges`: call-edge precision and recall against compiler truth (SCIP) on pinned corpora.
import * as path from 'node:path';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';
import { UsageError } from '../../../support/usage-error';
import { packageRoot } from '../../../support/package-root';

/** Scores the graph's call edges against SCIP gold and fails below the frozen baseline. */
export default class EvalEdgesCommand extends GortexCommand {
  static override summary = 'Score call edges against compiler truth (SCIP) on pinned corpora.';
  static override description =
    'Fetches pinned packages (sha256-checked, cached in --cache-dir), makes their gold with the real compiler-backed ' +
    'indexers (scip-typescript, scip-python: devDependencies of gortex; scip-go: built from the Go module proxy on first ' +
    'use), indexes each in a temporary GORTEX_HOME and ' +
    'scores the call edges (calls and instantiates out of function and method bodies, keyed by file and qualified ' +
    'name) for precision, recall and F1: all tiers, the ast_inferred-or-better slice, per tier, per callee kind ' +
    '(function / method / constructor), same-file and cross-file. --enrich scores again after a semantic-enrichment ' +
    'pass by the language servers. Exits 1 when a corpus drops more than the epsilon below eval/edges-baseline.json.';
  static override examples = [
    '<%= config.bin %> eval edges --corpus rxjs --corpus requests',
    '<%= config.bin %> eval edges --enrich --corpus rxjs',
    '<%= config.bin %> eval edges --update > new.json && mv new.json eval/edges-baseline.json',
  ];

  static override flags = {
    corpus: Flags.string({ description: 'Only this corpus (repeatable): rxjs, typescript-src, requests, django, gin, x-tools, gson, commons-math', multiple: true }),
    enrich: Flags.boolean({ description: 'Also score after a semantic-enrichment pass by the language servers (slow on large corpora)' }),
    epsilon: Flags.string({ description: 'Allowed drop below the baseline (default: the baseline file\'s, else 0.01)' }),
    update: Flags.boolean({ description: 'Print the new baseline JSON to stdout (merged with the current one) and change nothing' }),
    'cache-dir': Flags.string({ description: 'Where corpora and their SCIP indexes are cached (default ~/.cache/gortex/parity)' }),
    baseline: Flags.string({ description: 'The baseline file (default eval/edges-baseline.json of this package)' }),
    samples: Flags.boolean({ description: 'Print a sample of missed and wrong edges per corpus' }),
    json: Flags.boolean({ description: 'Print the measurements and verdicts as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EvalEdgesCommand);
    const run = await import('../../../eval/edges-run');
    const wanted = flags.corpus ?? [];
    for (const id of wanted) {
      if (!run.EDGE_CORPUS_IDS.includes(id)) throw new UsageError(`Unknown --corpus "${id}": use one of ${run.EDGE_CORPUS_IDS.join(', ')}`);
    }
    if (flags.update && flags.json) throw new UsageError('--update prints the baseline JSON already: drop --json');
    const baselineFile = flags.baseline ?? path.join(packageRoot(), 'eval', 'edges-baseline.json');
    let baseline;
    try {
      baseline = run.readEdgeBaseline(baselineFile);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (baseline === null && !flags.update) {
      throw new UsageError(`No baseline at ${baselineFile}: create one with --update > new.json && mv new.json ${baselineFile}, or name one with --baseline`);
    }
    let epsilon = baseline?.epsilon ?? 0.01;
    if (flags.epsilon !== undefined) {
      epsilon = Number(flags.epsilon);
      if (flags.epsilon.trim() === '' || !Number.isFinite(epsilon) || epsilon < 0 || epsilon >= 1) {
        throw new UsageError(`--epsilon must be a number in [0, 1), got "${flags.epsilon}" (e.g. --epsilon 0.01)`);
      }
    }
    const corpora = wanted.length > 0 ? run.EDGE_CORPORA.filter((c) => wanted.includes(c.id)) : run.EDGE_CORPORA;
    // Fail before the long run when an indexer cannot run.
    for (const indexer of new Set(corpora.map((c) => c.indexer))) {
      try {
        run.checkIndexer(indexer);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    const results = await run.runEdges({
      corpora,
      cacheDir: flags['cache-dir'] ?? run.defaultEdgesCacheDir(),
      enrich: flags.enrich,
      log: (msg) => process.stderr.write(`${msg}\n`),
    });
    if (flags.update) {
      for (const r of results) if (r.error) process.stderr.write(`not updated: ${r.id}: ${r.error}\n`);
      this.log(JSON.stringify(run.updatedEdgeBaseline(baseline, results, epsilon), null, 2));
      return;
    }
    const verdicts = run.compareEdges(results, baseline!, epsilon);
    const pass = verdicts.every((v) => v.status === 'ok' || v.status === 'new');
    if (flags.json) {
      this.log(JSON.stringify({ pass, epsilon, baseline: baselineFile, verdicts, results }, null, 2));
    } else {
      this.log(run.formatEdges(results, verdicts));
      if (flags.samples) this.log(run.formatSamples(results));
    }
    if (!pass) this.exit(1);
  }
}
