// Legacy text completion streams: `data: {text_completion}` chunks ending with `data: [DONE]`.
import type {
  Completion,
  CreateCompletionData,
  CreateCompletionRequest,
  ModelgateClient,
} from '@modelgate/core';
import { ChoiceStream } from './choice-stream.js';
import { postStream, type StreamOptions } from './event-stream.js';

const COMPLETIONS_PATH: CreateCompletionData['url'] = '/v1/completions';

/** A legacy completion request body; `stream: true` is added for you. */
export type CompletionStreamRequest = Omit<CreateCompletionRequest, 'stream'>;

type CompletionChoice = Completion['choices'][number];

interface ChoiceState {
  text: string;
  finishReason: CompletionChoice['finish_reason'];
}

/** A streamed legacy completion: each chunk is a `text_completion` whose `choices[].text` is the increment. */
export class CompletionStream extends ChoiceStream<Completion, ChoiceState> {
  protected initialState(): ChoiceState {
    return { text: '', finishReason: null };
  }

  protected addChoice(state: ChoiceState, choice: CompletionChoice): void {
    state.text += choice.text;
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
  }

  /** Reads the stream to the end and returns one `text_completion` with the texts joined. */
  async finalCompletion(): Promise<Completion> {
    const { first, choices, usage } = await this.drainChoices();
    return {
      ...first,
      choices: choices.map(
        ([index, state]): CompletionChoice => ({
          index,
          text: state.text,
          finish_reason: state.finishReason,
        }),
      ),
      ...(usage ? { usage } : {}),
    };
  }

  /** Reads the stream to the end and returns the text of the first choice. */
  async text(): Promise<string> {
    return (await this.firstChoice())?.text ?? '';
  }
}

/**
 * Streams `POST /v1/completions` (legacy) with the client's configuration.
 *
 * @example
 * ```ts
 * const text = await streamCompletion(client, { model: 'gpt-3.5-turbo-instruct', prompt: 'Once' }).text();
 * ```
 */
export function streamCompletion(
  client: ModelgateClient,
  body: CompletionStreamRequest,
  options: StreamOptions = {},
): CompletionStream {
  return new CompletionStream(postStream(client, COMPLETIONS_PATH, body, options), options.signal);
}
