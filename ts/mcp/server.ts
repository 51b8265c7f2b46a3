/**
 * The MCP server over the tool registry: `tools/list` from the registry's zod schemas (as JSON
 * Schema), `tools/call` through `callTool`, so validation and errors are the registry's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { packageVersion } from '../package-root';
import { ALL_TOOLS } from '../tools/index';
import { callTool, ToolCallError } from '../tools/dispatch';
import type { ToolContext, ToolDef } from '../tools/registry';


function listing(tool: ToolDef): Record<string, unknown> {
  const schema = z.toJSONSchema(z.strictObject(tool.input)) as Record<string, unknown>;
  delete schema.$schema;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: schema,
    annotations: { readOnlyHint: tool.effect === 'read', destructiveHint: false, openWorldHint: false },
  };
}

/** An MCP server answering every registry tool against `context()` (called per request). */
export function createMcpServer(context: () => Promise<ToolContext>): Server {
  const server = new Server(
    { name: 'gortex', version: packageVersion() },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'gortex answers code questions from a graph of this repository: search_symbols / search_text / ' +
        'find_files to locate code, get_symbol_source to read it, get_callers / find_usages / get_dependents ' +
        'before changing it. Rows carry provenance tiers; heed caveats.',
    },
  );
  const tools = ALL_TOOLS.map(listing);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      const result = await callTool(await context(), name, args ?? {});
      return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
    } catch (error) {
      const failure =
        error instanceof ToolCallError ? error : new ToolCallError('internal', error instanceof Error ? error.message : String(error));
      return { isError: true, content: [{ type: 'text' as const, text: `${failure.code}: ${failure.message}` }] };
    }
  });
  return server;
}
