// The chat panel: model picker, the conversation streaming in, send / stop, errors.
import type { Model, ModelgateClient } from '@modelgate/core';
import { getMessageText, useChat } from '@modelgate/react';
import { useEffect, useRef, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';

export function ChatPanel({ client, models }: { client: ModelgateClient; models: Model[] }) {
  const [model, setModel] = useState('');
  const selected = model || models[0]?.id || '';
  const {
    messages,
    input,
    handleInputChange,
    handleSubmit,
    isLoading,
    status,
    stop,
    error,
    setMessages,
  } = useChat({ client, model: selected });

  // Keep the newest text in view while it streams.
  const listRef = useRef<HTMLDivElement>(null);
  const lastText = messages.length ? getMessageText(messages[messages.length - 1]!) : '';
  useEffect(() => {
    const list = listRef.current;
    if (list && lastText) list.scrollTop = list.scrollHeight;
  }, [lastText]);

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
      </header>
      <div ref={listRef} className="messages" data-testid="messages" aria-live="polite">
        {messages.length === 0 && <p className="hint">Ask anything; the answer streams in.</p>}
        {messages.map((m, i) => (
          <div key={m.id} className={`message ${m.role}`} data-role={m.role}>
            <span className="role">{m.role}</span>
            <p>
              {getMessageText(m)}
              {isLoading && i === messages.length - 1 && m.role === 'assistant' && (
                <span className="cursor" aria-hidden="true">
                  ▍
                </span>
              )}
            </p>
          </div>
        ))}
        {status === 'submitted' && <p className="hint">Waiting for the first token…</p>}
      </div>
      <ErrorNote error={error} />
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
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!selected || input.trim() === ''}>
            Send
          </button>
        )}
        <button
          type="button"
          className="secondary"
          onClick={() => setMessages([])}
          disabled={isLoading}
        >
          Clear
        </button>
      </form>
    </section>
  );
}
