// The chat panel: model and API format pickers, the conversation streaming in, send / stop /
// regenerate, token usage, an uploaded image attached by URL, errors.
import type { FileObject, Model, ModelgateClient } from '@modelgate/core';
import { getMessageText, type UseChatResult, useChat } from '@modelgate/react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';

type Format = 'chat' | 'messages';

export function ChatPanel({
  client,
  models,
  image,
  onSpent,
}: {
  client: ModelgateClient;
  models: Model[];
  image: FileObject | null;
  /** A turn ended (finished, stopped or failed): the balance changed. */
  onSpent: () => void;
}) {
  const [model, setModel] = useState('');
  const [format, setFormat] = useState<Format>('chat');
  const selected = model || models[0]?.id || '';
  const chat = useChat({ client, model: selected, format });
  const { messages, input, setInput, handleInputChange, handleSubmit, isLoading, status } = chat;

  // Keep the newest text in view while it streams.
  const listRef = useRef<HTMLDivElement>(null);
  const lastText = messages.length ? getMessageText(messages[messages.length - 1]!) : '';
  useEffect(() => {
    const list = listRef.current;
    if (list && lastText) list.scrollTop = list.scrollHeight;
  }, [lastText]);

  // Every turn that ends has spent something (a stopped one too).
  const wasLoading = useRef(false);
  useEffect(() => {
    if (wasLoading.current && !isLoading) onSpent();
    wasLoading.current = isLoading;
  }, [isLoading, onSpent]);

  // The chat formats carry text only: an image goes into the message as its CDN URL.
  const attachImage = () => {
    if (image) setInput(`${input}${input ? ' ' : ''}Image: ${image.url}`);
  };

  return (
    <section className="panel" aria-labelledby="chat-title">
      <header>
        <h2 id="chat-title">Chat</h2>
        <label>
          Model{' '}
          <select
            aria-label="Chat model"
            value={selected}
            onChange={(e) => setModel(e.target.value)}
            disabled={isLoading}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          API{' '}
          <select
            aria-label="Chat API"
            value={format}
            onChange={(e) => setFormat(e.target.value === 'messages' ? 'messages' : 'chat')}
            disabled={isLoading}
          >
            <option value="chat">/v1/chat/completions</option>
            <option value="messages">/v1/messages</option>
          </select>
        </label>
      </header>
      <Transcript chat={chat} listRef={listRef} />
      {status === 'submitted' && <p className="hint">Waiting for the first token…</p>}
      <ErrorNote error={chat.error} />
      <form className="composer" onSubmit={handleSubmit}>
        <input
          className="grow"
          aria-label="Message"
          placeholder="Type a message"
          value={input}
          onChange={handleInputChange}
          disabled={!selected}
        />
        {isLoading ? (
          <button type="button" onClick={chat.stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!selected || input.trim() === ''}>
            Send
          </button>
        )}
        <button type="button" className="secondary" onClick={attachImage} disabled={!image}>
          Attach image
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => void chat.regenerate()}
          disabled={isLoading || messages.length === 0}
        >
          Regenerate
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => chat.setMessages([])}
          disabled={isLoading}
        >
          Clear
        </button>
      </form>
      {chat.usage && (
        <p className="hint" data-testid="chat-usage">
          Last answer: {chat.usage.prompt_tokens} in + {chat.usage.completion_tokens} out tokens ·
          this session: {chat.totalUsage.total_tokens} tokens
        </p>
      )}
    </section>
  );
}

function Transcript({
  chat,
  listRef,
}: {
  chat: UseChatResult;
  listRef: RefObject<HTMLDivElement | null>;
}) {
  const { messages, isLoading, finishReason } = chat;
  const last = messages.length - 1;
  return (
    <div ref={listRef} className="messages" data-testid="messages" aria-live="polite">
      {messages.length === 0 && <p className="hint">Ask anything; the answer streams in.</p>}
      {messages.map((m, i) => {
        const stopped = i === last && m.role === 'assistant' && finishReason === 'stopped';
        return (
          <div
            key={m.id}
            className={`message ${m.role}`}
            data-role={m.role}
            data-stopped={stopped || undefined}
          >
            <span className="role">{m.role}</span>
            <p>
              {getMessageText(m)}
              {isLoading && i === last && m.role === 'assistant' && (
                <span className="cursor" aria-hidden="true">
                  ▍
                </span>
              )}
            </p>
            {stopped && <span className="badge">stopped</span>}
          </div>
        );
      })}
    </div>
  );
}
