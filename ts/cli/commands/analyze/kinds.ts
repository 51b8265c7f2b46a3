import { QueryCommand, queryBaseFlags } from '../../query-command';

/** `gortex analyze kinds`: the analyses `gortex analyze --kind` runs. */
export default class AnalyzeKindsCommand extends QueryCommand {
  static override summary = 'List the analysis kinds with a one-line description each.';
  static override flags = { ...queryBaseFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(AnalyzeKindsCommand);
    const { renderAnalysis } = await import('../../render-analysis');
    await this.runTool('analyze', { kind: 'kinds' }, flags, (r) => renderAnalysis('kinds', r));
  }
}
