// `gortex eval refactor`: renames, moves, inlines and safe deletes on pinned corpora, checked by the languages' own tools.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Flags } from '@oclif/core';
import { GortexCommand } from '../../base-command';
import { UsageError } from '../../../support/usage-error';

/** Applies a seeded sample of refactorings to real packages and reports what was applied, refused and broken. */
export default class EvalRefactorCommand extends GortexCommand {
  static override summary = 'Apply seeded random refactorings to pinned corpora and check that the code still builds.';
  static override description =
    'On the pinned parity corpora of TypeScript (zod), Python (requests), Go (gin) and Java (gson), applies a seeded sample of ' +
    'rename_symbol, move_symbol, inline_symbol and safe_delete_symbol calls through the call pipeline, one at a time on a git ' +
    'working copy. After each applied one it runs the language check (tsc --noEmit; compileall + pyright; go build + go vet; javac) ' +
    'and counts diagnostics the untouched corpus did not have, compares the incrementally updated graph with a clean index, then ' +
    'resets the copy. Exits 1 when an applied operation broke the build or left the graph unlike a clean index. Needs the network ' +
    'on the first run (corpora, pyright, the error_prone_annotations jar); it is not part of CI.';
  static override examples = ['<%= config.bin %> eval refactor', '<%= config.bin %> eval refactor --lang go --per-op 20 --seed 7', '<%= config.bin %> eval refactor --json > refactor.json'];

  static override flags = {
    lang: Flags.string({ description: 'Only this language (repeatable): typescript, python, go, java', multiple: true }),
    'per-op': Flags.integer({ description: 'Operations sampled per operation and language (default 8)', min: 1, max: 200 }),
    seed: Flags.integer({ description: 'Sampling seed (default 1)' }),
    'cache-dir': Flags.string({ description: 'Where corpora and checking tools are cached (default ~/.cache/gortex/parity)' }),
    'no-graph-check': Flags.boolean({ description: 'Skip the clean-index comparison (faster)' }),
    json: Flags.boolean({ description: 'Print every operation and its outcome as JSON' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EvalRefactorCommand);
    const { REFACTOR_LANGUAGES, formatRefactorEval, runRefactorEval } = await import('../../../eval/refactor');
    const { defaultParityCacheDir } = await import('../../../eval/parity-corpora');
    const languages = flags.lang ?? [...REFACTOR_LANGUAGES];
    for (const l of languages) {
      if (!(REFACTOR_LANGUAGES as readonly string[]).includes(l)) throw new UsageError(`Unknown --lang "${l}": use one of ${REFACTOR_LANGUAGES.join(', ')}`);
    }
    const { openEmbedded, embeddedWorkspace } = await import('../../../workspace/embedded');
    const { CallPipeline } = await import('../../../calls/pipeline');
    // Its own home: the write locks, journals and snapshots of the throw-away copies stay out of the user's.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-eval-refactor-home-'));
    process.env.GORTEX_HOME = home;
    const perOp = flags['per-op'] ?? 8;
    const seed = flags.seed ?? 1;
    try {
      const runs = await runRefactorEval({
        languages: languages as (typeof REFACTOR_LANGUAGES)[number][],
        perOp,
        seed,
        cacheDir: flags['cache-dir'] ?? defaultParityCacheDir(),
        graphCheck: !flags['no-graph-check'],
        log: (m) => process.stderr.write(`${m}\n`),
        open: async (root) => {
          const repo = await openEmbedded(root, { watch: false });
          const pipeline = new CallPipeline();
          const context = await repo.context();
          return {
            engine: context.engine,
            repo: context.repo,
            close: () => repo.close(),
            call: async (tool, args) => {
              const outcome = await pipeline.call({ tool, args, format: 'json' }, { context: () => repo.context(), workspace: embeddedWorkspace(repo) });
              return outcome.ok ? { ok: true, value: JSON.parse(outcome.text) } : { ok: false, code: outcome.code, message: outcome.message };
            },
          };
        },
      });
      this.log(flags.json ? JSON.stringify({ seed, per_op: perOp, runs }, null, 2) : formatRefactorEval(runs, { seed, perOp }));
      const bad = runs.some((r) => r.error !== undefined || r.ops.some((o) => o.outcome === 'error' || (o.new_diagnostics?.length ?? 0) > 0 || o.graph_equal === false));
      if (bad) this.exit(1);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
}
