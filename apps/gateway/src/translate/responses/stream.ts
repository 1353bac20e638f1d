/**
 * Chat stream → responses events, the stream half of the responses translator. It sits between
 * the chat relay and the client's sink: the relay writes chat chunks (`data: {…}\n\n`), this
 * writes the Responses API's numbered event sequence in their place. A chat error frame, or a
 * stream that ends without `[DONE]`, ends the client's stream with one `response.failed`.
 */
import type { Response as ModelResponse, ResponseOutputItem, ResponseUsage } from '@modelgate/core';
import type { StreamSink } from '../stream-sink.js';
import type { OpenAiToolCallDelta } from '../wire.js';
import {
  type ChatUsageLike,
  callItem,
  finishResponse,
  messageItem,
  responsesId,
  restoreCall,
  type ToolNaming,
  usageOf,
} from './response.js';

interface OpenItem {
  item: ResponseOutputItem;
  text: string;
}

interface ChatChunkLike {
  choices?: {
    delta?: { content?: string | null; tool_calls?: OpenAiToolCallDelta[] };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsageLike | null;
  error?: { message?: string; type?: string; code?: string | null };
}

export class ResponsesStreamSink implements StreamSink {
  private buffer = '';
  private sequence = 0;
  private ended = false;
  private open: OpenItem | null = null;
  private readonly calls = new Map<number, OpenItem>();
  private readonly output: ResponseOutputItem[] = [];
  private finish: string | null = null;
  private usage: ResponseUsage = usageOf(null);
  /** The completed response being kept: its event, and the end, wait for it. */
  private keeping: Promise<void> | null = null;

  /**
   * @param onCompleted keeps the completed response (for `previous_response_id`); its last event
   * and the end of the stream wait for it. It never rejects.
   */
  constructor(
    private readonly sink: StreamSink,
    private readonly shell: ModelResponse,
    private readonly naming: ToolNaming,
    private readonly onCompleted: (response: ModelResponse) => Promise<void>,
  ) {
    this.emit({ type: 'response.created', response: shell });
    this.emit({ type: 'response.in_progress', response: shell });
  }

  write(text: string): boolean {
    if (this.ended) return true;
    this.buffer += text;
    let at = this.buffer.indexOf('\n\n');
    while (at !== -1 && !this.ended) {
      const frame = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      this.frame(frame);
      at = this.buffer.indexOf('\n\n');
    }
    return true;
  }

  onDrain(listener: () => void): void {
    this.sink.onDrain(listener);
  }

  onClientGone(listener: () => void): void {
    this.sink.onClientGone(listener);
  }

  end(): void {
    if (!this.ended) this.failed('upstream_error', 'The upstream stream ended before completion.');
    if (this.keeping) void this.keeping.then(() => this.sink.end());
    else this.sink.end();
  }

  destroy(): void {
    this.sink.destroy();
  }

  private emit(event: { type: string; [field: string]: unknown }): void {
    const data = { ...event, sequence_number: this.sequence++ };
    this.sink.write(`event: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private frame(frame: string): void {
    const data = frame
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data === '') return;
    if (data === '[DONE]') {
      this.completed();
      return;
    }
    const chunk = JSON.parse(data) as ChatChunkLike;
    if (chunk.error) {
      this.failed(
        chunk.error.code ?? chunk.error.type ?? 'upstream_error',
        chunk.error.message ?? '',
      );
      return;
    }
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.delta?.content) this.text(choice.delta.content);
    for (const call of choice.delta?.tool_calls ?? []) this.toolCall(call);
    if (choice.finish_reason) this.finish = choice.finish_reason;
  }

  private text(delta: string): void {
    if (!this.open) {
      const item = messageItem(responsesId('msg_'), '', 'in_progress');
      this.open = { item, text: '' };
      this.emit({
        type: 'response.output_item.added',
        output_index: this.output.length,
        item: { ...item, content: [] },
      });
      this.emit({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: this.output.length,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    this.open.text += delta;
    const at = { item_id: this.open.item.id, output_index: this.output.length, content_index: 0 };
    this.emit({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
  }

  private closeMessage(): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    const index = this.output.length;
    const item = messageItem(String(open.item.id), open.text);
    const at = { item_id: item.id, output_index: index, content_index: 0 };
    this.emit({ type: 'response.output_text.done', ...at, text: open.text, logprobs: [] });
    this.emit({ type: 'response.content_part.done', ...at, part: item.content?.[0] });
    this.emit({ type: 'response.output_item.done', output_index: index, item });
    this.output.push(item);
  }

  private toolCall(delta: OpenAiToolCallDelta): void {
    this.closeMessage();
    let open = this.calls.get(delta.index);
    if (!open) {
      const call = {
        id: delta.id ?? '',
        type: 'function' as const,
        function: { name: delta.function?.name ?? '', arguments: '' },
      };
      const item = callItem(responsesId('fc_'), call, 'in_progress');
      open = { item, text: '' };
      this.calls.set(delta.index, open);
      // Tool calls take output indexes after the message, in the order they open.
      item.output_index = this.output.length + this.calls.size - 1;
      this.emit({
        type: 'response.output_item.added',
        output_index: item.output_index,
        item: restoreCall(this.clean(item), this.naming),
      });
    }
    const piece = delta.function?.arguments ?? '';
    if (piece === '') return;
    open.text += piece;
    // A custom tool's input is known only whole (it arrives as JSON `{ input }`).
    if (this.naming.custom.has(String(open.item.name))) return;
    this.emit({
      type: 'response.function_call_arguments.delta',
      item_id: open.item.id,
      output_index: open.item.output_index,
      delta: piece,
    });
  }

  private clean(item: ResponseOutputItem): ResponseOutputItem {
    const { output_index: _, ...rest } = item;
    return rest;
  }

  private closeCalls(): void {
    for (const open of this.calls.values()) {
      const index = Number(open.item.output_index);
      const item = this.clean({ ...open.item, status: 'completed', arguments: open.text });
      const restored = restoreCall(item, this.naming);
      if (restored.type === 'function_call')
        this.emit({
          type: 'response.function_call_arguments.done',
          item_id: item.id,
          output_index: index,
          name: restored.name,
          arguments: open.text,
        });
      this.emit({ type: 'response.output_item.done', output_index: index, item: restored });
      this.output.push(item);
    }
    this.calls.clear();
  }

  private completed(): void {
    this.closeMessage();
    this.closeCalls();
    this.ended = true;
    const output = this.output.map((item) => restoreCall(item, this.naming));
    const response = finishResponse(this.shell, output, this.finish, this.usage);
    const type = response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    // Kept before the client hears it is done, so its next call can name it at once.
    this.keeping = this.onCompleted(response).then(() => this.emit({ type, response }));
  }

  private failed(code: string, message: string): void {
    this.ended = true;
    const response = {
      ...this.shell,
      status: 'failed',
      error: { code, message },
      output: this.output,
    };
    this.emit({ type: 'response.failed', response });
  }
}
