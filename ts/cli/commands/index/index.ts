// `gortex index [PATH]`. (A folder named `index` holding `index.ts`, because oclif maps a top-level
// `commands/index.js` to the root command rather than to a command called "index".)
import { Args, Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** Indexes a repository into the knowledge graph and prints what was found. */
export default class IndexCommand extends GortexCommand {
  static override summary = 'Index a repository into the code graph.';
  static override description =
    'Walks the repository (honouring .gitignore and .gortexignore), parses every supported file in ' +
    'parallel, resolves references and saves a snapshot under GORTEX_HOME. Re-running it re-parses ' +
    'only the files that changed.';
  static override examples = [
    '<%= config.bin %> index',
    '<%= config.bin %> index ../other-repo --name other',
    '<%= config.bin %> index --force --json',
  ];

  static override args = {
    path: Args.string({
      description: 'A folder inside the repository (default: the current directory); its git root is indexed',
      required: false,
    }),
  };

  static override flags = {
    json: Flags.boolean({ description: 'Print the index report as JSON (plus peak_rss_bytes)' }),
    force: Flags.boolean({ description: 'Ignore the saved snapshot and index from scratch' }),
    name: Flags.string({ description: 'Repository name used in node ids (default: the root folder name)' }),
    threads: Flags.integer({ description: 'Parser threads (default: GORTEX_THREADS, else all cores)', min: 1 }),
    'exclude-dir': Flags.string({
      description: 'Also skip directories with this name anywhere in the tree (repeatable)',
      multiple: true,
    }),
    'default-excludes': Flags.boolean({
      description: 'Skip the built-in directories (node_modules, target, dist, build, vendor, …)',
      default: true,
      allowNo: true,
    }),
    'max-file-size': Flags.integer({ description: 'Skip files larger than this many bytes (default 4 MiB)', min: 1 }),
    'index-generated': Flags.boolean({ description: 'Also parse files marked as generated (Code generated … DO NOT EDIT)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(IndexCommand);
    const { resolveRepoRoot } = await import('../../../support/repo-root');
    const root = resolveRepoRoot(args.path);

    const { Engine } = await import('../../../engine/engine');
    const { ProgressLine } = await import('../../../support/progress-line');
    const engine = new Engine(flags.threads === undefined ? {} : { threads: flags.threads });
    const { configIndexOptions } = await import('../../../workspace/open-repo');
    const fromConfig = await configIndexOptions(root, engine);

    const progress = process.stderr.isTTY ? new ProgressLine(process.stderr) : undefined;
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once('SIGINT', onSigint);
    let report;
    try {
      report = await engine.indexRepo(root, {
        ...fromConfig,
        ...(flags.name === undefined ? {} : { name: flags.name }),
        force: flags.force,
        defaultExcludes: flags['default-excludes'],
        indexGenerated: flags['index-generated'],
        ...(flags['exclude-dir'] === undefined ? {} : { excludeDirs: flags['exclude-dir'] }),
        ...(flags['max-file-size'] === undefined ? {} : { maxFileSize: flags['max-file-size'] }),
        signal: controller.signal,
        ...(progress ? { onProgress: (event) => progress.update(event) } : {}),
      });
    } finally {
      progress?.clear();
      process.off('SIGINT', onSigint);
    }

    // maxRSS is in KiB and covers the Rust side too: the addon lives in this process.
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;
    if (flags.json) {
      this.log(JSON.stringify({ ...report, peak_rss_bytes: peakRssBytes }, null, 2));
      return;
    }
    const { formatIndexSummary } = await import('../../summaries');
    this.log(formatIndexSummary(report, peakRssBytes));
  }
}
