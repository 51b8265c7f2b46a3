// `gortex eval recall`: symbol-search retrieval quality on the labelled fixture.
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** Measures R@1, R@5, R@20 and MRR of `search_symbols` (or `explore`) per tier on a labelled query fixture. */
export default class EvalRecallCommand extends GortexCommand {
  static override summary = 'Measure symbol-search recall on the labelled retrieval fixture.';
  static override description =
    'Indexes every corpus the fixture names (checked-in fixture repos, and pinned real corpora fetched ' +
    'with benches/fetch-corpora.sh into --corpus-dir), runs each labelled query through search_symbols (or, ' +
    'with --tool explore, through explore as its task text) and ' +
    'prints R@1, R@5, R@20 and MRR per tier (exact, concept, multi_hop) and overall. A case is a hit at k ' +
    'when any gold id is among the first k results.';
  static override examples = [
    '<%= config.bin %> eval recall',
    '<%= config.bin %> eval recall --corpus resolver-ts --corpus resolver-go --json',
    '<%= config.bin %> eval recall --tool explore --fixture test/fixtures/retrieval/heldout.json',
  ];

  static override flags = {
    fixture: Flags.string({ description: 'The fixture JSON (default: test/fixtures/retrieval/retrieval.json of this package)' }),
    'corpus-dir': Flags.string({
      description: 'Where pinned corpora are cached (default: $GORTEX_CORPORA, else ~/.cache/gortex-corpora)',
    }),
    corpus: Flags.string({ description: 'Only cases of this corpus (repeatable)', multiple: true }),
    json: Flags.boolean({ description: 'Print metrics and every case as JSON' }),
    misses: Flags.boolean({ description: 'Also list the cases that missed at 5' }),
    tool: Flags.string({
      description: 'The tool that ranks: search_symbols (default) or explore (each query as its task text)',
      options: ['search_symbols', 'explore'],
      default: 'search_symbols',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EvalRecallCommand);
    const { runRecall, formatRecall } = await import('../../eval-recall');
    type RecallTool = import('../../eval-recall').RecallTool;
    const report = await runRecall({
      tool: flags.tool as RecallTool,
      ...(flags.fixture === undefined ? {} : { fixture: flags.fixture }),
      ...(flags['corpus-dir'] === undefined ? {} : { corpusDir: flags['corpus-dir'] }),
      ...(flags.corpus === undefined ? {} : { corpora: flags.corpus }),
      log: (msg) => process.stderr.write(`${msg}\n`),
    });
    this.log(flags.json ? JSON.stringify(report, null, 2) : formatRecall(report, flags.misses));
  }
}
