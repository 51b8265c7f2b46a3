// `gortex eval parity`: per-language resolution-coverage gate on pinned registry corpora.
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';
import { UsageError } from '../../../support/usage-error';

/** Measures resolved cross-file coverage per language on pinned corpora and fails below the baseline. */
export default class EvalParityCommand extends GortexCommand {
  static override summary = 'Gate per-language resolution coverage on pinned registry corpora.';
  static override description =
    'Fetches one pinned package per language from its registry (sha256-checked, cached in --cache-dir), indexes ' +
    'each in a temporary GORTEX_HOME and measures resolved cross-file coverage (the share of symbol-bearing files ' +
    'that another file depends on through a resolved edge), symbols per file and the share of call sites per ' +
    'resolution tier. Exits 1 when a language is more than --epsilon below eval/parity-baseline.json (a baselined ' +
    'language that could not be measured counts as 0). Needs the network on the first run; it is not part of CI.';
  static override examples = [
    '<%= config.bin %> eval parity',
    '<%= config.bin %> eval parity --lang go --lang rust',
    '<%= config.bin %> eval parity --update > new.json && mv new.json eval/parity-baseline.json',
  ];

  static override flags = {
    lang: Flags.string({ description: 'Only this language (repeatable)', multiple: true }),
    epsilon: Flags.string({ description: 'Allowed drop below the baseline (default 0.005)' }),
    update: Flags.boolean({ description: 'Print the new baseline JSON to stdout (merged with the current one) and change nothing' }),
    'cache-dir': Flags.string({ description: 'Where corpora are cached (default ~/.cache/gortex/parity)' }),
    baseline: Flags.string({ description: 'The baseline file (default eval/parity-baseline.json of this package)' }),
    json: Flags.boolean({ description: 'Print the measurements and verdicts as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EvalParityCommand);
    const { PARITY_CORPORA, PARITY_LANGUAGES, defaultParityCacheDir } = await import('../../../eval/parity-corpora');
    let epsilon = 0.005;
    if (flags.epsilon !== undefined) {
      epsilon = Number(flags.epsilon);
      if (flags.epsilon.trim() === '' || !Number.isFinite(epsilon) || epsilon < 0 || epsilon >= 1) {
        throw new UsageError(`--epsilon must be a number in [0, 1), got "${flags.epsilon}" (e.g. --epsilon 0.005)`);
      }
    }
    const wanted = flags.lang ?? [];
    for (const language of wanted) {
      if (!PARITY_LANGUAGES.includes(language)) {
        throw new UsageError(`Unknown --lang "${language}": use one of ${PARITY_LANGUAGES.join(', ')}`);
      }
    }
    if (flags.update && flags.json) throw new UsageError('--update prints the baseline JSON already: drop --json');
    const { compareWithBaseline, updatedBaseline } = await import('../../../eval/parity');
    const { defaultBaselinePath, formatParity, readBaseline, runParity } = await import('../../../eval/parity-run');
    const baselineFile = flags.baseline ?? defaultBaselinePath();
    // Read the baseline before the long run so a broken file fails at once.
    let baseline;
    try {
      baseline = readBaseline(baselineFile);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (baseline === null && !flags.update) {
      throw new UsageError(`No baseline at ${baselineFile}: create one with --update > new.json && mv new.json ${baselineFile}, or name one with --baseline`);
    }
    const corpora = wanted.length > 0 ? PARITY_CORPORA.filter((c) => wanted.includes(c.language)) : PARITY_CORPORA;
    const results = await runParity({
      corpora,
      cacheDir: flags['cache-dir'] ?? defaultParityCacheDir(),
      log: (msg) => process.stderr.write(`${msg}\n`),
    });
    const measured = results.map((r) => ({
      language: r.language,
      corpus: r.corpus,
      coverage: r.coverage?.coverage ?? null,
      ...(r.error === undefined ? {} : { error: r.error }),
    }));
    if (flags.update) {
      for (const r of results) if (r.error) process.stderr.write(`not updated: ${r.language}: ${r.error}\n`);
      this.log(JSON.stringify(updatedBaseline(baseline, measured), null, 2));
      return;
    }
    const { pass, verdicts } = compareWithBaseline(measured, baseline!, epsilon, wanted.length > 0 ? wanted : undefined);
    this.log(
      flags.json
        ? JSON.stringify({ pass, epsilon, baseline: baselineFile, verdicts, results }, null, 2)
        : formatParity(results, verdicts, epsilon),
    );
    if (!pass) this.exit(1);
  }
}
