// The demo: connection settings and the key's balance on top, then an image upload, image
// generation, the chat and video panels, and the operator panel (keys and usage), one client for
// all of them.
import { createClient, type FileObject } from '@modelgate/core';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { ChatPanel } from './ChatPanel.js';
import { formatCredits } from './credits.js';
import { ErrorNote } from './ErrorNote.js';
import { ImagePanel } from './ImagePanel.js';
import { ImageUpload } from './ImageUpload.js';
import { OperatorPanel } from './OperatorPanel.js';
import { useSettings } from './settings.js';
import { useBalance } from './use-balance.js';
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
  const [image, setImage] = useState<FileObject | null>(null);
  // Bumped after anything that spends credit, so the balance is read again.
  const [spent, setSpent] = useState(0);
  const onSpent = useCallback(() => setSpent((n) => n + 1), []);
  const balance = useBalance(client, spent);
  const textModels = models.filter((m) => m.type === 'text');
  const imageModels = models.filter((m) => m.type === 'image');
  const videoModels = models.filter((m) => m.type === 'video');
  const embeddingModels = models.filter((m) => m.type === 'embedding');

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
                : `Connected: ${textModels.length} text, ${imageModels.length} image, ${videoModels.length} video and ${embeddingModels.length} embedding models`}
        </span>
        {balance.summary && (
          <span className="balance" data-testid="balance">
            {balance.summary.grants.data.length === 0 ? (
              // A key without a quota (the bootstrap admin) has no grant: its balance is unlimited.
              <>
                Balance: <strong>unlimited</strong> ({formatCredits(balance.summary.total_used)}{' '}
                credits used)
              </>
            ) : (
              <>
                Balance: <strong>{formatCredits(balance.summary.total_available)}</strong> of{' '}
                {formatCredits(balance.summary.total_granted)} credits
              </>
            )}
          </span>
        )}
      </form>
      <ErrorNote error={error} />
      {client && models.length > 0 && (
        <>
          <ImageUpload client={client} image={image} onUploaded={setImage} />
          {/* Like the video panel: another key starts it afresh. A chosen image becomes "the
              image" an upload would be: the video panel's first frame, the chat's attachment. */}
          {imageModels.length > 0 && (
            <ImagePanel
              key={`${settings.baseUrl} ${settings.apiKey}`}
              client={client}
              models={imageModels}
              image={image}
              onSpent={onSpent}
              onUseAsFirstFrame={setImage}
            />
          )}
          <div className="panels">
            <ChatPanel client={client} models={textModels} image={image} onSpent={onSpent} />
            {/* A task belongs to the key that submitted it: another key starts the panel afresh. */}
            <VideoPanel
              key={`${settings.baseUrl} ${settings.apiKey}`}
              client={client}
              models={videoModels}
              image={image}
              onSpent={onSpent}
            />
          </div>
          <OperatorPanel client={client} version={spent} />
        </>
      )}
    </main>
  );
}
