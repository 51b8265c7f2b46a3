/**
 * `ask`: a research agent over the graph, when the user configured a model (`llm.ts`). The model
 * gets the question and a first look (the symbols a search for it finds), then works in steps:
 * each step it either asks for one read-only graph tool (search, source, callers, callees, usages,
 * text search, file outline) — run through the call pipeline like any call, its answer cut to a
 * budget and shown back — or answers. The answer's citations are checked against the graph; a
 * citation the graph does not hold is flagged, not silently kept. Without a model it is
 * `not_available` and says how to configure one.
 */
import { z } from 'zod';
import type { ToolContext } from '../workspace/context';
import { LLM_HOWTO, llmOf, type ChatMessage } from './llm';
import { callAnother, defineTool, repoNameOf, ToolInputError } from './registry';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** The tools the agent may call (read-only), with the arguments it is told about. */
const AGENT_TOOLS: Record<string, string> = {
  search_symbols: '{"query": "<name or words>", "limit": 10}',
  get_symbol_source: '{"id": "<symbol id or name>"}',
  get_callers: '{"id": "<symbol id>", "limit": 20}',
  get_call_chain: '{"id": "<symbol id>", "depth": 2}',
  find_usages: '{"id": "<symbol id>", "limit": 20}',
  search_text: '{"query": "<literal text>", "limit": 20}',
  get_file_summary: '{"path": "<repo-relative path>"}',
};
/** Characters of one tool answer shown to the model. */
const OBSERVATION_CHARS = 6000;

/** The agent's instructions. */
function systemPrompt(chain: boolean): string {
  return [
    'You answer questions about a code repository by reading its code graph. Work in steps. Each step, reply with exactly one JSON object:',
    '{"action": "<tool>", "args": {...}, "why": "<short reason>"} to read more, or',
    '{"answer": "<the answer, in prose>", "citations": ["<symbol id or path:line>", ...]} when you can answer.',
    `Tools: ${Object.entries(AGENT_TOOLS).map(([name, args]) => `${name} ${args}`).join('; ')}.`,
    'Cite only symbols and lines you have seen in tool results. Say so when the code read does not settle the question.',
    ...(chain ? ['Trace the call chain the question is about end to end (callers and callees, across repositories when ids show them), and give it as a list of hops in the answer.'] : []),
  ].join('\n');
}

/** A tool answer as the model sees it: JSON, cut to a budget. */
function observation(result: unknown): string {
  const text = JSON.stringify(result);
  return text.length > OBSERVATION_CHARS ? `${text.slice(0, OBSERVATION_CHARS)}… (cut)` : text;
}

/** Whether the graph holds a citation: a symbol id or name, or a `path[:line]` of an indexed file. */
function citationKnown(ctx: ToolContext, citation: string): boolean {
  const at = /^(.+?):(\d+)$/.exec(citation);
  if (ctx.engine.getNode(ctx.repo, `${repoNameOf(ctx)}/${at ? at[1]! : citation}`) !== null) return true;
  try {
    ctx.engine.query('get_symbol', { id: citation }, { repo: ctx.repo });
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'ambiguous';
  }
}

/** `ask`: the research loop. */
async function ask(ctx: ToolContext, args: { question: string; chain?: boolean | undefined; max_steps?: number | undefined }): Promise<Json> {
  const llm = llmOf(ctx);
  if (!llm) throw new ToolInputError('not_available', `ask needs a language model; ${LLM_HOWTO}`);
  const maxSteps = args.max_steps ?? 8;
  const first = (await callAnother(ctx, 'search_symbols', { query: args.question, limit: 10 })) as Json;
  const seed = ((first.results ?? []) as Json[]).map((r) => ({ id: r.id, kind: r.kind, path: r.path, line: r.line, signature: r.signature }));
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(args.chain === true) },
    { role: 'user', content: `Question: ${args.question}\n\nA search for the question found:\n${JSON.stringify(seed)}` },
  ];
  const steps: Json[] = [];
  for (let step = 1; step <= maxSteps; step++) {
    const reply = (await llm.json(messages)) as Json;
    if (typeof reply?.answer === 'string') {
      const citations = (Array.isArray(reply.citations) ? reply.citations : []).filter((c: unknown): c is string => typeof c === 'string').slice(0, 50);
      const checked = citations.map((c: string) => ({ ref: c, in_graph: citationKnown(ctx, c) }));
      return {
        answer: reply.answer,
        citations: checked,
        ...(checked.some((c: Json) => !c.in_graph) ? { note: 'some citations name nothing the graph holds: read them with care' } : {}),
        steps,
        model: llm.model,
      };
    }
    const tool = String(reply?.action ?? '');
    messages.push({ role: 'assistant', content: JSON.stringify(reply) });
    if (!(tool in AGENT_TOOLS)) {
      steps.push({ step, action: tool || null, error: 'not a tool the agent may call' });
      messages.push({ role: 'user', content: `"${tool}" is not one of the tools (${Object.keys(AGENT_TOOLS).join(', ')}). Reply with an action or an answer.` });
      continue;
    }
    const toolArgs = reply.args && typeof reply.args === 'object' ? (reply.args as Record<string, unknown>) : {};
    let seen: string;
    try {
      seen = observation(await callAnother(ctx, tool, toolArgs));
      steps.push({ step, action: tool, args: toolArgs, ...(reply.why ? { why: String(reply.why).slice(0, 300) } : {}) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      steps.push({ step, action: tool, args: toolArgs, error: message });
      seen = `error: ${message}`;
    }
    messages.push({ role: 'user', content: `${tool} answered: ${seen}` });
  }
  return {
    answer: null,
    citations: [],
    steps,
    model: llm.model,
    note: `the model did not answer within ${maxSteps} steps; raise max_steps or ask a narrower question`,
  };
}

/** The research agent. */
export const askTools = [
  defineTool({
    name: 'ask',
    category: 'analysis',
    effect: 'read',
    description:
      'Research a question about the code with the configured language model: it reads the graph in steps (search, source, callers, callees, usages, text, file outlines — read-only, through the call pipeline) and answers with citations checked against the graph; chain: true traces a call chain end to end. Every step is listed. Without a model configured it is not_available and says how to configure one.',
    input: {
      question: z.string().min(3).max(2000).describe('The question, e.g. "where are sessions expired and who calls it?"'),
      chain: z.boolean().optional().describe('Trace the call chain the question is about, hop by hop'),
      max_steps: z.number().int().min(1).max(20).optional().describe('Most tool steps before it must answer (default 8)'),
    },
    handler: (ctx, args) => ask(ctx, args),
  }),
];
