import { Flags } from '@oclif/core';
import { GortexCommand } from '../base-command';

/** `gortex savings`: the token-savings ledger. */
export default class SavingsCommand extends GortexCommand {
  static override summary = 'Show the tokens gortex answers saved against plain file reads.';
  static override description =
    'Every answer books the tokens it returned against reading whole each file it points into (never less than the answer). ' +
    'The ledger lives in <gortex home>/sidecar.sqlite, per day, repository and tool; GORTEX_SAVINGS=off stops booking. ' +
    'Tokens are estimated at four bytes each.';
  static override examples = [
    '<%= config.bin %> savings',
    '<%= config.bin %> savings --since 7d --verbose',
    '<%= config.bin %> savings --usd-per-mtok 3 --json',
    '<%= config.bin %> savings --reset',
  ];
  static override flags = {
    json: Flags.boolean({ description: 'Print the ledger as JSON' }),
    since: Flags.string({ description: 'Only days this recent (7d, 2w, 30d)' }),
    verbose: Flags.boolean({ description: 'Also per repository and per day' }),
    'usd-per-mtok': Flags.string({ description: 'Price of a million input tokens, to show what was saved in dollars' }),
    reset: Flags.boolean({ description: 'Empty the ledger (asks for nothing: the ledger is all it touches)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SavingsCommand);
    const { UsageError } = await import('../../support/usage-error');
    const { sidecarAt } = await import('../../engine/sidecar');
    const { totalsOf } = await import('../../tools/savings');
    const store = sidecarAt();
    if (flags.reset) {
      const removed = store.savingsReset();
      this.log(`Savings ledger emptied (${removed} day rows removed from ${store.path}).`);
      return;
    }
    let sinceDay: string | undefined;
    if (flags.since !== undefined) {
      const { parseDuration } = await import('../../support/duration');
      const span = parseDuration(flags.since);
      if (span === undefined) throw new UsageError(`--since must be a duration like 7d, 2w or 12h, got ${JSON.stringify(flags.since)}`);
      sinceDay = new Date(Date.now() - span).toISOString().slice(0, 10);
    }
    let price: number | undefined;
    if (flags['usd-per-mtok'] !== undefined) {
      price = Number(flags['usd-per-mtok']);
      if (!Number.isFinite(price) || price < 0) throw new UsageError(`--usd-per-mtok must be a price like 3 or 0.25, got ${JSON.stringify(flags['usd-per-mtok'])}`);
    }
    const report = store.savingsReport(sinceDay);
    const usd = (saved: number) => (price === undefined ? {} : { saved_usd: Math.round((saved / 1e6) * price * 100) / 100 });
    const rows = (list: typeof report.by_tool) => list.map((r) => ({ key: r.key, ...totalsOf([r]), ...usd(totalsOf([r]).saved_tokens) }));
    const total = totalsOf([report.total]);
    const answer = {
      ledger: store.path,
      ...(sinceDay ? { since: sinceDay } : {}),
      total: { ...total, ...usd(total.saved_tokens) },
      by_tool: rows(report.by_tool),
      by_repo: rows(report.by_repo),
      by_day: rows(report.by_day),
    };
    if (flags.json) {
      this.log(JSON.stringify(answer, null, 2));
      return;
    }
    const { renderSavings } = await import('../render-memory');
    this.log(renderSavings(answer, flags.verbose));
  }
}
