// The demo: connection settings on top, chat and video panels below, one client for both.
import { createClient } from '@modelgate/core';
import { type FormEvent, useMemo, useState } from 'react';
import { ChatPanel } from './ChatPanel.js';
import { ErrorNote } from './ErrorNote.js';
import { useSettings } from './settings.js';
import { useModels } from './use-models.js';
import { VideoPanel } from './VideoPanel.js';

export function App() {
  const [settings, saveSettings] = useSettings();
  const [draft, setDraft] = useState(settings);
  const client = useMemo(
    () =>
      settings.apiKey
        ? createClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, maxRetries: 1 })
        : null,
    [settings.baseUrl, settings.apiKey],
  );
  const { models, error, loading } = useModels(client);
  const textModels = models.filter((m) => m.type === 'text');
  const videoModels = models.filter((m) => m.type === 'video');

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    saveSettings({ baseUrl: draft.baseUrl.trim(), apiKey: draft.apiKey.trim() });
  };

  return (
    <main>
      <h1>modelgate demo</h1>
      <form className="settings" onSubmit={onSave}>
        <label>
          Gateway URL
          <input
            aria-label="Gateway URL"
            value={draft.baseUrl}
            onChange={(e) => setDraft({ ...draft, baseUrl: e.target.value })}
          />
        </label>
        <label>
          API key
          <input
            aria-label="API key"
            type="password"
            placeholder="sk-…"
            value={draft.apiKey}
            onChange={(e) => setDraft({ ...draft, apiKey: e.target.value })}
          />
        </label>
        <button type="submit">Connect</button>
        <span className="status" data-testid="connection">
          {!client
            ? 'Enter an API key (POST /v1/token with the admin key makes one).'
            : loading
              ? 'Loading models…'
              : error
                ? 'Not connected'
                : `Connected: ${textModels.length} text and ${videoModels.length} video models`}
        </span>
      </form>
      <ErrorNote error={error} />
      {client && models.length > 0 && (
        <div className="panels">
          <ChatPanel client={client} models={textModels} />
          <VideoPanel client={client} models={videoModels} />
        </div>
      )}
    </main>
  );
}
