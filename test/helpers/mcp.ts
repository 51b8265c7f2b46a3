/** The real MCP server over an embedded repository, linked in process to an SDK client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../ts/mcp/server';
import { embeddedWorkspace, type EmbeddedRepo } from '../../ts/workspace/embedded';

/** A connected client of a fresh server over `repo` with the `tools` surface (default `full`). */
export async function serveEmbedded(repo: EmbeddedRepo, tools = 'full'): Promise<Client> {
  const server = createMcpServer(repo, { workspace: embeddedWorkspace(repo), env: {}, tools });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'gortex-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
