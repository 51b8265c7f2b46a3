import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../../query-command';
import { textFrom } from '../../edit-command';
import { UsageError } from '../../../support/usage-error';

/** `gortex edit batch --from FILE`: batch_edit. */
export default class EditBatch extends QueryCommand {
  static override summary = 'Apply several edits as one (JSON), in dependency order, undone whole if one is refused.';
  static override description =
    'The JSON is a list of changes (or {"changes": [...]}), each {"operation": "file"|"write"|"symbol", …} with the arguments of edit_file, write_file or edit_symbol.';
  static override examples = ['<%= config.bin %> edit batch --from changes.json --dry-run', 'cat changes.json | <%= config.bin %> edit batch --from -'];

  static override flags = {
    ...queryBaseFlags,
    from: Flags.string({ description: 'Read the changes from this file (- for standard input)', required: true }),
    'dry-run': Flags.boolean({ description: 'Preview each change against the files as they are now' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EditBatch);
    let parsed: unknown;
    try {
      parsed = JSON.parse(textFrom(undefined, flags.from, '--from'));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--from ${flags.from} is not JSON: ${(error as Error).message}`);
    }
    const changes = Array.isArray(parsed) ? parsed : (parsed as { changes?: unknown })?.changes;
    if (!Array.isArray(changes)) throw new UsageError('the batch must be a JSON list of changes, or {"changes": [...]}');
    await this.runTool('batch_edit', { changes, ...(flags['dry-run'] ? { dry_run: true } : {}) }, flags, (r: Record<string, any>) =>
      [
        `${r.status === 'would_apply' ? 'would apply' : 'applied'} ${r.results.length} change${r.results.length === 1 ? '' : 's'} in order ${r.order.join(', ')}`,
        ...(r.results as Record<string, any>[]).map((x) => `  ${x.step}: ${x.status} ${x.path}${x.new_sha ? ` (new sha ${x.new_sha})` : ''}`),
      ].join('\n'),
    );
  }
}
