/**
 * The HTTP surface (`ts/http/app.ts`, `/mcp` of `ts/http/streamable.ts`) over a fixture MCP server
 * that has the tools, resources and prompts the `@modelcontextprotocol/conformance` server scenarios
 * call (`test_simple_text`, `test://static-text`, `test_simple_prompt`, …), so every scenario
 * exercises our Streamable HTTP transport rather than stopping at "gortex has no such tool".
 * gortex's own surface is measured against the daemon by `benches/conformance.sh`; this is the
 * transport-only half of that run. The fixture is written from the scenarios' published
 * requirements, not taken from the conformance repository.
 *
 * Usage: node dist/benches/conformance-host.js [host:port [allowed-origin…]]   (default 127.0.0.1:0)
 * The origins are `--http-allowed-origin` values (none by default: every browser Origin is refused).
 * Prints `listening <url>/mcp` once bound; runs until SIGTERM/SIGINT.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ElicitResultSchema,
  CreateMessageResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { startHttpServer } from '../ts/http/app';
import type { HttpHost } from '../ts/http/host';

/** A 1×1 red PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A 10 ms silent 8 kHz mono 8-bit WAV. */
function wav(): string {
  const samples = 80;
  const b = Buffer.alloc(44 + samples, 0x80);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  return b.toString('base64');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const noArgs = { type: 'object', properties: {} } as const;

const TOOLS = [
  { name: 'test_simple_text', description: 'Returns simple text', inputSchema: noArgs },
  { name: 'test_image_content', description: 'Returns an image', inputSchema: noArgs },
  { name: 'test_audio_content', description: 'Returns audio', inputSchema: noArgs },
  { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: noArgs },
  { name: 'test_multiple_content_types', description: 'Returns text, image and resource', inputSchema: noArgs },
  { name: 'test_tool_with_logging', description: 'Logs three messages while running', inputSchema: noArgs },
  { name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100', inputSchema: noArgs },
  { name: 'test_error_handling', description: 'Always fails', inputSchema: noArgs },
  { name: 'test_sampling', description: 'Asks the client to sample', inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] } },
  { name: 'test_elicitation', description: 'Asks the client for input', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  { name: 'test_elicitation_sep1034_defaults', description: 'Elicitation with defaults', inputSchema: noArgs },
  { name: 'test_elicitation_sep1330_enums', description: 'Elicitation with enum variants', inputSchema: noArgs },
  { name: 'test_reconnection', description: 'Answers (this transport answers POSTs as JSON, so it never closes a stream mid-call)', inputSchema: noArgs },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
];

/** One session's fixture server. */
function fixtureServer(): Server {
  const server = new Server(
    { name: 'gortex-conformance-fixture', version: '1.0.0' },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} } },
  );
  const subscriptions = new Set<string>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS as never }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case 'test_simple_text':
        return text('This is a simple text response for testing.');
      case 'test_image_content':
        return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
      case 'test_audio_content':
        return { content: [{ type: 'audio', data: wav(), mimeType: 'audio/wav' }] };
      case 'test_embedded_resource':
        return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
      case 'test_multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
          ],
        };
      case 'test_tool_with_logging': {
        for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
          if (i > 0) await sleep(50);
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        }
        return text('Tool with logging executed successfully');
      }
      case 'test_tool_with_progress': {
        const token = request.params._meta?.progressToken;
        for (const [i, progress] of [0, 50, 100].entries()) {
          if (i > 0) await sleep(50);
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
        }
        return text(`Progress tool completed${token !== undefined ? ` (token ${String(token)})` : ''}`);
      }
      case 'test_error_handling':
        return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
      case 'test_sampling': {
        const answer = await extra.sendRequest(
          { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt ?? '') } }], maxTokens: 100 } },
          CreateMessageResultSchema,
        );
        const content = answer.content as { type: string; text?: string };
        return text(`LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`);
      }
      case 'test_elicitation': {
        const answer = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: String(args.message ?? ''),
              requestedSchema: {
                type: 'object',
                properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
                required: ['username', 'email'],
              },
            },
          },
          ElicitResultSchema,
        );
        return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'test_elicitation_sep1034_defaults': {
        const answer = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: 'Please review the defaults',
              requestedSchema: {
                type: 'object',
                properties: {
                  name: { type: 'string', default: 'John Doe' },
                  age: { type: 'integer', default: 30 },
                  score: { type: 'number', default: 95.5 },
                  status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
                  verified: { type: 'boolean', default: true },
                },
              },
            },
          } as never,
          ElicitResultSchema,
        );
        return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'test_elicitation_sep1330_enums': {
        const answer = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: 'Pick options',
              requestedSchema: {
                type: 'object',
                properties: {
                  untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
                  titledSingle: {
                    type: 'string',
                    oneOf: [
                      { const: 'value1', title: 'First Option' },
                      { const: 'value2', title: 'Second Option' },
                      { const: 'value3', title: 'Third Option' },
                    ],
                  },
                  legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
                  untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
                  titledMulti: {
                    type: 'array',
                    items: {
                      anyOf: [
                        { const: 'value1', title: 'First Choice' },
                        { const: 'value2', title: 'Second Choice' },
                        { const: 'value3', title: 'Third Choice' },
                      ],
                    },
                  },
                },
              },
            },
          } as never,
          ElicitResultSchema,
        );
        return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'test_reconnection':
        return text('Reconnection test completed');
      case 'json_schema_2020_12_tool':
        return text(`received ${JSON.stringify(args)}`);
      default:
        throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(request.params.name)}`);
    }
  });

  const RESOURCES = [
    { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
    { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource', mimeType: 'image/png' },
    { uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource to subscribe to', mimeType: 'text/plain' },
  ];
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', description: 'A templated resource', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    if (uri === 'test://static-text') return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri === 'test://watched-resource') return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }] };
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
    throw new McpError(-32002, `Resource not found: ${uri}`);
  });
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  const PROMPTS = [
    { name: 'test_simple_prompt', description: 'A simple prompt' },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    { name: 'test_prompt_with_embedded_resource', description: 'A prompt embedding a resource', arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
    { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  ];
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'test_simple_prompt':
        return { messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] };
      case 'test_prompt_with_arguments':
        return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            { role: 'user', content: { type: 'resource', resource: { uri: String(args.resourceUri ?? 'test://embedded'), mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        };
      case 'test_prompt_with_image':
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        };
      default:
        throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(request.params.name)}`);
    }
  });
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const value = request.params.argument.value;
    const values = ['paris', 'park', 'party'].filter((v) => v.startsWith(value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

/** An `HttpHost` whose only real part is the fixture MCP server (the /v1 API is not under test). */
function fixtureHost(): HttpHost {
  const startedAt = new Date().toISOString();
  return {
    serverId: `conformance-fixture-${process.pid}`,
    startedAt,
    health: async () => ({ status: 'ok' }),
    stats: async () => ({}),
    graph: async () => ({ repos: [] }),
    served: async () => [],
    crossEdges: () => [],
    tools: () => [],
    callTool: async (name) => ({ ok: false, tool: name, code: 'tool_not_found', message: 'the conformance fixture serves /mcp only', meta: {} }),
    subscribe: () => undefined,
    newMcpServer: () => fixtureServer(),
  };
}

async function main(): Promise<void> {
  const addr = process.argv[2] ?? '127.0.0.1:0';
  const server = await startHttpServer(fixtureHost(), { addr, allowedOrigins: process.argv.slice(3) });
  process.stdout.write(`listening ${server.url}/mcp\n`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
