// `modelgate chat "prompt"`: streams one answer to stdout as plain text, pipe friendly.
import type { ModelgateClient } from '@modelgate/core';
import {
  ChatSession,
  type ChatSessionState,
  DEFAULT_MESSAGES_MAX_TOKENS,
  getMessageText,
} from '@modelgate/stream';
import type { ChatApi } from '../args.js';
import { describeError, formatError, isAbortError } from '../errors.js';
import { formatCount } from '../format.js';
import { type CommandIO, ExitCode, readAll, reportFailure } from './io.js';

export interface ChatCommandInput {
  client: ModelgateClient;
  model: string;
  /** The prompt; `-` or `undefined` with a piped stdin reads it from stdin. */
  prompt: string | undefined;
  /** Print the whole answer as JSON once it is done, instead of streaming text. */
  json?: boolean;
  /** The API the answer comes from (`--api`); default `chat`. */
  api?: ChatApi;
}

/**
 * Streams the answer token by token to stdout and ends it with a newline. Only when stdout is a
 * terminal does a dim usage line go to stderr; a pipe gets the answer and nothing else.
 *
 * @example
 * ```ts
 * const code = await runChatCommand({ client, model: 'gpt-4o-mini', prompt: 'Say hi' }, process);
 * ```
 */
export async function runChatCommand(input: ChatCommandInput, io: CommandIO): Promise<number> {
  const prompt = await resolvePrompt(input.prompt, io);
  if (prompt === undefined) {
    io.stderr.write('modelgate: chat needs a prompt: modelgate chat "…" (or - to read stdin)\n');
    return ExitCode.usage;
  }
  if (input.json) return printCompletionJson(input, prompt, io);

  if (io.signal?.aborted) return ExitCode.interrupted;
  const session = new ChatSession({
    client: input.client,
    model: input.model,
    format: input.api ?? 'chat',
  });
  const { answer, wroteText } = await streamToStdout(session, prompt, io);
  const { status, error, usage } = session.getSnapshot();
  if (wroteText || answer) io.stdout.write('\n');
  if (status === 'error') {
    io.stderr.write(`modelgate: ${formatError(describeError(error))}\n`);
    return ExitCode.failed;
  }
  if (!answer) return ExitCode.interrupted;
  if (io.stdout.isTTY && io.stderr.isTTY && usage) {
    io.stderr.write(`\x1b[2m${input.model} · ${formatCount(usage.total_tokens)} tokens\x1b[22m\n`);
  }
  return ExitCode.ok;
}

/** Runs the turn, writing to stdout what each change of the session added; Ctrl+C stops it. */
async function streamToStdout(session: ChatSession, prompt: string, io: CommandIO) {
  let written = 0;
  const unsubscribe = session.subscribe(() => {
    const text = answerText(session.getSnapshot());
    if (text.length > written) io.stdout.write(text.slice(written));
    written = text.length;
  });
  const stop = () => session.stop();
  io.signal?.addEventListener('abort', stop, { once: true });
  try {
    const answer = await session.send(prompt);
    return { answer, wroteText: written > 0 };
  } finally {
    io.signal?.removeEventListener('abort', stop);
    unsubscribe();
  }
}

/** The assistant's answer of the (only) turn, '' until it starts. */
function answerText(state: ChatSessionState): string {
  const last = state.messages.at(-1);
  return last?.role === 'assistant' ? getMessageText(last) : '';
}

/**
 * One request without streaming: scripts get a single JSON document (the answer and its usage) in
 * the shape of the API asked for: a `chat.completion`, a `message` or a `response`.
 */
async function printCompletionJson(
  input: ChatCommandInput,
  prompt: string,
  io: CommandIO,
): Promise<number> {
  try {
    const answer = await createAnswer(input, prompt, io.signal);
    io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return ExitCode.ok;
  } catch (error) {
    return isAbortError(error) ? ExitCode.interrupted : reportFailure(io, error);
  }
}

function createAnswer(input: ChatCommandInput, prompt: string, signal: AbortSignal | undefined) {
  const { client, model } = input;
  switch (input.api) {
    case 'messages':
      return client.messages.create(
        {
          model,
          max_tokens: DEFAULT_MESSAGES_MAX_TOKENS,
          messages: [{ role: 'user', content: prompt }],
        },
        { signal },
      );
    case 'responses':
      // A one-off answer: nothing to continue from, so the gateway need not keep it.
      return client.responses.create({ model, input: prompt, store: false }, { signal });
    default:
      return client.chat.completions.create(
        { model, messages: [{ role: 'user', content: prompt }] },
        { signal },
      );
  }
}

async function resolvePrompt(
  prompt: string | undefined,
  io: CommandIO,
): Promise<string | undefined> {
  const fromStdin = prompt === '-' || (prompt === undefined && !io.stdin.isTTY);
  const text = fromStdin ? await readAll(io.stdin) : prompt;
  return text !== undefined && text.trim() !== '' ? text.trim() : undefined;
}
