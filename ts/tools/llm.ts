/**
 * The language model gortex may ask, when the user configured one: an OpenAI-compatible
 * chat-completions endpoint (`llm:` of the global config, or `GORTEX_LLM_ENDPOINT` /
 * `GORTEX_LLM_MODEL` / `GORTEX_LLM_API_KEY`). A repository's own config cannot set it (it must not
 * choose where its code is sent). Every text sent is secret-redacted first; answers are read as
 * JSON (a fenced block or the first object in the reply). With none configured, callers say so
 * instead of answering.
 */
import { ConfigError, loadConfig, type LlmSetting } from '../config/config';
import type { ToolContext } from '../workspace/context';
import { redactSecrets } from '../support/redact';
import { ToolInputError } from './registry';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A configured model. */
export interface Llm {
  model: string;
  /** The endpoint's origin, for answers (never the key). */
  host: string;
  /** Sends `messages` and returns the reply parsed as JSON; throws `ToolInputError('unavailable')` on any failure. */
  json(messages: readonly ChatMessage[]): Promise<unknown>;
}

/** How to configure a model, for answers given without one. */
export const LLM_HOWTO =
  'configure an OpenAI-compatible endpoint in the global config (~/.gortex/config.yaml: llm: {endpoint: http://localhost:11434/v1, model: <name>, api_key_env: <VAR>}) or set GORTEX_LLM_ENDPOINT and GORTEX_LLM_MODEL';

/** The model configured for this context (environment over the global config), or undefined. */
export function llmOf(ctx: Pick<ToolContext, 'root'>, env: NodeJS.ProcessEnv = process.env): Llm | undefined {
  let setting: LlmSetting | undefined;
  try {
    setting = loadConfig(ctx.root, env).llm;
  } catch (error) {
    if (error instanceof ConfigError) throw new ToolInputError('invalid_argument', error.message);
    throw error;
  }
  const endpoint = env.GORTEX_LLM_ENDPOINT?.trim() || setting?.endpoint;
  const model = env.GORTEX_LLM_MODEL?.trim() || setting?.model;
  if (!endpoint || !model) return undefined;
  if (!/^https?:\/\/./.test(endpoint)) throw new ToolInputError('invalid_argument', `GORTEX_LLM_ENDPOINT must be an http(s) URL, got ${JSON.stringify(endpoint)}`);
  const key = env.GORTEX_LLM_API_KEY ?? (setting?.apiKeyEnv ? env[setting.apiKeyEnv] : undefined);
  const timeoutMs = setting?.timeoutMs ?? 120_000;
  const url = `${endpoint.replace(/\/+$/, '')}/chat/completions`;
  const host = new URL(url).origin;
  return {
    model,
    host,
    json: async (messages) => {
      const body = { model, temperature: 0, messages: messages.map((m) => ({ role: m.role, content: redactSecrets(m.content).text })) };
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ToolInputError('unavailable', `the model at ${host} did not answer: ${(error as Error).message}`);
      }
      const text = await response.text();
      if (!response.ok) throw new ToolInputError('unavailable', `the model at ${host} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
      let content: unknown;
      try {
        content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
      } catch {
        throw new ToolInputError('unavailable', `the model at ${host} answered something that is not a chat completion: ${text.slice(0, 200)}`);
      }
      if (typeof content !== 'string') throw new ToolInputError('unavailable', `the model at ${host} answered a chat completion without message content`);
      const parsed = jsonIn(content);
      if (parsed === undefined) throw new ToolInputError('unavailable', `the model at ${host} did not answer JSON: ${content.slice(0, 200)}`);
      return parsed;
    },
  };
}

/** The JSON value in a model's reply: the whole text, a fenced block, or the first balanced object. */
export function jsonIn(text: string): unknown {
  const tries = [text.trim(), /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1]?.trim()];
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) tries.push(text.slice(start, end + 1));
  for (const t of tries) {
    if (!t) continue;
    try {
      return JSON.parse(t);
    } catch {
      // the next form
    }
  }
  return undefined;
}
