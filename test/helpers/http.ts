/** Shared pieces of the HTTP tests: a clean process environment and an SSE reader. */
import { tempHome } from './repo';

/**
 * Gives this test process a private gortex home and clears the settings that would change the
 * HTTP surface under test (tokens, session TTL, tool surface).
 */
export function isolateHttpEnv(): void {
  process.env.GORTEX_HOME = tempHome();
  process.env.GORTEX_THREADS = '2';
  delete process.env.GORTEX_DAEMON_HTTP_TOKEN;
  delete process.env.GORTEX_MCP_SESSION_IDLE_TTL;
  delete process.env.GORTEX_TOOLS;
  delete process.env.GORTEX_TOOLS_MODE;
}

/** Reads an SSE response until `done(text)` holds or the stream ends; returns all text read. */
export async function readSse(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}
