import { Flags } from '@oclif/core';
import { QueryCommand, queryBaseFlags } from '../query-command';

/** `gortex contracts`: service contracts between the served repositories, or (--check) their issues. */
export default class ContractsCommand extends QueryCommand {
  static override summary = 'List the API contracts between repositories (HTTP, gRPC, GraphQL, topics, WebSocket, env, OpenAPI), or check them.';
  static override description =
    'Providers and consumers found in every repository the daemon serves (or this one with --embedded), matched by ' +
    'method and path template, service, field, topic, event or variable name. --check lists what does not match: ' +
    'calls nothing serves, a method a path is not served for, documented operations nothing serves, unused providers, ' +
    'type disagreements.';
  static override examples = ['<%= config.bin %> contracts', '<%= config.bin %> contracts --type http --type grpc', '<%= config.bin %> contracts --check --json'];
  static override flags = {
    ...queryBaseFlags,
    check: Flags.boolean({ description: 'List the issues instead of the contracts' }),
    type: Flags.string({ description: 'Only this family; repeatable', options: ['http', 'grpc', 'graphql', 'topic', 'ws', 'env', 'openapi'], multiple: true }),
    'include-tests': Flags.boolean({ description: 'Also sites in test code' }),
    limit: Flags.integer({ description: 'Most rows (default 500)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractsCommand);
    const args: Record<string, unknown> = { action: flags.check ? 'check' : 'list' };
    if (flags.type) args.types = flags.type;
    if (flags['include-tests']) args.include_tests = true;
    if (flags.limit !== undefined) args.limit = flags.limit;
    const { renderContracts } = await import('../render-analysis');
    await this.runTool('contracts', args, flags, renderContracts);
  }
}
