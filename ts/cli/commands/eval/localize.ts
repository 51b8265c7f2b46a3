// `gortex eval localize`: does one explore call find the code a real bug report is about?
import * as os from 'node:os';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';

/** Scores explore against BM25 baselines on real issue reports with gold from their fixing patches. */
export default class EvalLocalizeCommand extends GortexCommand {
  static override summary = 'Measure how well explore localizes real bug reports (file acc@k, function all@k) beside BM25 baselines.';
  static override description =
    'Runs the tasks of eval/localize/tasks.jsonl (SWE-bench Lite/Verified, SWE-bench Multilingual and ' +
    'Multi-SWE-bench issue reports in Python, Go, JavaScript and TypeScript, split into dev and heldout by id): ' +
    'each repository is checked out at the task\'s base commit from a git mirror (--mirrors; a missing one is ' +
    'cloned from GitHub) and indexed incrementally, explore ranks with the problem statement, and BM25 over ' +
    'files and over function bodies rank as baselines. Gold: the non-test files the fixing patch changes and ' +
    'the functions/methods whose lines it touches. Prints file acc@1/5/10 (a gold file in the top k), ' +
    'function all@5/10 (every gold function in the top k), explore\'s tokens and latency, per split and language.';
  static override examples = [
    '<%= config.bin %> eval localize --split dev --language python --per-repo 5',
    '<%= config.bin %> eval localize --mirrors /work/.mirror --repo psf/requests --json',
  ];

  static override flags = {
    tasks: Flags.string({ description: 'The task file (default: eval/localize/tasks.jsonl of this package)' }),
    mirrors: Flags.string({ description: 'A directory of git mirrors (<owner>+<name>/repo, <owner>+<name>.git or <owner>/<name>); repeatable. Default: $GORTEX_LOCALIZE_MIRRORS, ~/.cache/gortex-corpora/localize-mirrors', multiple: true }),
    language: Flags.string({ description: 'Only tasks of this language (repeatable)', multiple: true, options: ['python', 'go', 'javascript', 'typescript'] }),
    repo: Flags.string({ description: 'Only tasks of this repository, owner/name (repeatable)', multiple: true }),
    split: Flags.string({ description: 'dev (tune on it), heldout (report it) or all', options: ['dev', 'heldout', 'all'], default: 'all' }),
    'per-repo': Flags.integer({ description: 'At most this many tasks per repository', min: 1 }),
    json: Flags.boolean({ description: 'Print the metrics and every task as JSON' }),
    out: Flags.string({ description: 'Also write the JSON report to this file' }),
    rankings: Flags.string({ description: 'Also write every ranker\'s top 50 files and functions (with lines) per task to this JSON Lines file, for offline re-ranking studies' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EvalLocalizeCommand);
    const { packageRoot } = await import('../../../support/package-root');
    const { runLocalize, formatLocalize } = await import('../../../eval/localize');
    const { Engine } = await import('../../../engine/engine');
    const defaultMirrors = path.join(os.homedir(), '.cache', 'gortex-corpora', 'localize-mirrors');
    const mirrors = flags.mirrors ?? [process.env.GORTEX_LOCALIZE_MIRRORS?.trim() || defaultMirrors];
    fs.mkdirSync(mirrors[0]!, { recursive: true });
    const tasksFile = flags.tasks ?? path.join(packageRoot(), 'eval', 'localize', 'tasks.jsonl');
    if (!fs.existsSync(tasksFile)) {
      this.error(
        flags.tasks !== undefined
          ? `--tasks ${tasksFile} does not exist; give a JSON Lines task file like eval/localize/tasks.jsonl`
          : `${tasksFile} does not exist: the task set ships with a source checkout of gortex, not the npm package; run this there or pass --tasks FILE`,
        { exit: 2 },
      );
    }
    const { localToolCall } = await import('../../eval-tool-call');
    // Both outputs are opened before the run, so a path that cannot be written fails in a second,
    // not after the hours the tasks take.
    const rankingsOut = flags.rankings !== undefined ? this.openOutput('--rankings', flags.rankings) : undefined;
    const reportOut = flags.out !== undefined ? this.openOutput('--out', flags.out) : undefined;
    try {
      const report = await runLocalize(Engine, {
        tasksFile,
        callTool: localToolCall,
        mirrors,
        split: flags.split as 'dev' | 'heldout' | 'all',
        ...(flags.language ? { languages: flags.language } : {}),
        ...(flags.repo ? { repos: flags.repo } : {}),
        ...(flags['per-repo'] !== undefined ? { perRepo: flags['per-repo'] } : {}),
        log: (message) => process.stderr.write(`${message}\n`),
        ...(rankingsOut !== undefined ? { onRankings: (r: object) => fs.writeSync(rankingsOut, `${JSON.stringify(r)}\n`) } : {}),
      });
      if (reportOut !== undefined) fs.writeSync(reportOut, `${JSON.stringify(report, null, 2)}\n`);
      this.log(flags.json ? JSON.stringify(report, null, 2) : formatLocalize(report));
    } finally {
      for (const fd of [rankingsOut, reportOut]) if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** Opens an output file for writing, or stops naming the flag and why it cannot be written. */
  private openOutput(flag: string, file: string): number {
    try {
      return fs.openSync(file, 'w');
    } catch (error) {
      return this.error(`${flag} ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a file path in an existing, writable directory`, { exit: 2 });
    }
  }
}
