/** `gortex call`: one registry tool call from the command line. */
import { callableTools } from '../ts/calls/surface';
import { decodeGcx, gcxToObjects } from '../ts/wire/gcx';
import { runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('gortex call', () => {
  const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
  const root = fixtureCopy('query/app-ts', 'callapp');

  test('lists the tools', () => {
    const r = runCli(['call', '--list']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^get_symbol_source\s+A symbol's own source lines/m);
    expect(r.stdout.trim().split('\n').map((line) => line.split(/\s+/)[0])).toEqual(callableTools().map((t) => t.name));
  });

  test('takes --arg key=value (JSON values typed) and --json-args', () => {
    const r = runCli(['call', 'search_symbols', '--arg', 'query=summarize', '--arg', 'limit=1', '--repo', root], { env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.results.map((h: any) => h.id)).toEqual(['callapp/src/render.ts::summarize']);
    const callers = runCli(['call', 'get_callers', '--json-args', '{"id":"formatLabel","min_tier":"ast_resolved"}', '--repo', root], { env });
    expect(JSON.parse(callers.stdout).tier_filtered).toBeDefined();
  });

  test('--format gcx prints the GCX1 text an MCP client would get', () => {
    const json = JSON.parse(runCli(['call', 'search_symbols', '--arg', 'query=summarize', '--repo', root], { env }).stdout);
    const r = runCli(['call', 'search_symbols', '--arg', 'query=summarize', '--format', 'gcx', '--repo', root], { env });
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('GCX1 tool=search_symbols')).toBe(true);
    const [section] = decodeGcx(r.stdout);
    expect(gcxToObjects(section!).map((row) => row.id)).toEqual(json.results.map((h: any) => h.id));
    // The format is a pipeline option like any other: as an argument it wins over the flag.
    const asArgument = runCli(['call', 'search_symbols', '--arg', 'query=summarize', '--arg', 'format=gcx', '--format', 'json', '--repo', root], { env });
    expect(asArgument.stdout).toBe(r.stdout);
  });

  test('bad input exits 2 with the reason', () => {
    const cases: [string[], RegExp][] = [
      [['call', 'nope'], /unknown tool "nope"/],
      [['call', 'get_symbol', '--json-args', '{oops'], /--json-args is not valid JSON/],
      [['call', 'get_symbol', '--arg', 'id'], /must look like key=value/],
      [['call', 'get_symbol'], /get_symbol: id: /],
      [['call', 'get_symbol', '--arg', 'id=nosuchthing'], /^ ›   Error: not_found: /m],
      [['call'], /Name a tool to call/],
      [['call', 'get_symbol', '--arg', 'id=summarize', '--format', 'xml'], /Expected --format=xml to be one of: json, gcx/],
      [['call', 'get_symbol', '--arg', 'id=summarize', '--arg', 'format=xml'], /invalid_argument: format must be "json" or "gcx", got "xml"/],
      // Parsed arguments are bounded in the pipeline too: nothing recurses over 10,000 levels.
      [['call', 'get_symbol', '--json-args', `{"id":${'['.repeat(10_000)}${']'.repeat(10_000)}}`], /invalid_argument: get_symbol: the argument object nests/],
    ];
    for (const [args, message] of cases) {
      const r = runCli([...args, '--repo', root], { env });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
