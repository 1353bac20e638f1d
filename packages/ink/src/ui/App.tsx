// The interactive chat screen: scrollback (printed once), the streaming answer, running video tasks,
// the prompt, and a status line.
import { createClient, type Model, type ModelgateClient } from '@modelgate/core';
import { Box, Static, useApp, useInput } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatApi } from '../args.js';
import { userMessage } from '../chat-content.js';
import type { CliConfig } from '../config.js';
import { describeError } from '../errors.js';
import { formatBalance, formatCount, formatModelTable, formatTurnCost } from '../format.js';
import { generateImages, imageUrls } from '../image-generation.js';
import { type InputAction, parseInputLine, SLASH_HELP } from '../slash-commands.js';
import { ModelPicker } from './ModelPicker.js';
import { PromptInput } from './PromptInput.js';
import { StatusLine } from './StatusLine.js';
import { type Entry, EntryView, StreamingView, VideoProgressView } from './Transcript.js';
import { useAttachments } from './use-attachments.js';
import { useChatSession } from './use-chat-session.js';
import { useCredits } from './use-credits.js';
import { useVideoTasks } from './use-video-tasks.js';

/** Entries are appended only: `<Static>` prints each once. Distributive so `id` can be left out. */
type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

export interface AppProps {
  /** Gateway, key and starting model (see `loadConfig`). */
  config: CliConfig;
  /** A client to use instead of one built from `config`. */
  client?: ModelgateClient;
  /** How often the streaming answer is redrawn at most. Default 40 ms. */
  batchMs?: number;
  /** How often running video tasks are polled. Default 1000 ms. */
  videoPollMs?: number;
  /** The API the answers come from (`--api`). Default `chat`. */
  api?: ChatApi;
}

/**
 * The `modelgate` chat screen.
 *
 * @example
 * ```tsx
 * import { render } from 'ink';
 * import { App, loadConfig } from '@modelgate/ink';
 *
 * const { waitUntilExit } = render(<App config={loadConfig({}, process.env)} />, { exitOnCtrlC: false });
 * await waitUntilExit();
 * ```
 */
export function App({
  config,
  client: givenClient,
  batchMs = 40,
  videoPollMs = 1000,
  api = 'chat',
}: AppProps) {
  const { exit } = useApp();
  const client = useMemo(
    () => givenClient ?? createClient({ baseUrl: config.baseUrl, apiKey: config.apiKey }),
    [givenClient, config.baseUrl, config.apiKey],
  );

  const nextId = useRef(0);
  const [entries, setEntries] = useState<Entry[]>(() => [
    {
      id: nextId.current++,
      kind: 'info',
      lines: [
        `modelgate · ${config.baseUrl} · /help for commands, /exit to quit`,
        ...(config.apiKey ? [] : ['No API key: set MODELGATE_API_KEY or pass --api-key.']),
      ],
    },
  ]);
  const [model, setModel] = useState(config.model);
  const [input, setInput] = useState('');
  const [submitted, setSubmitted] = useState<string[]>([]);
  const [sessionTokens, setSessionTokens] = useState(0);
  const [picker, setPicker] = useState<Model[] | null>(null);
  const [exitArmed, setExitArmed] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const append = useCallback((...items: NewEntry[]) => {
    if (!mounted.current) return;
    setEntries((list) => [
      ...list,
      ...items.map((item) => ({ ...item, id: nextId.current++ }) as Entry),
    ]);
  }, []);

  // The conversation lives in the chat session; finished paragraphs of the streaming answer are
  // printed once, into the scrollback.
  const chat = useChatSession(
    client,
    batchMs,
    (part) => append({ kind: 'assistant', stopped: false, ...part }),
    api,
  );
  const videos = useVideoTasks(client, videoPollMs);

  const { credits, lastSummary, refresh: refreshCredits } = useCredits(client);
  const attachments = useAttachments(client);

  const sendPrompt = useCallback(
    async (text: string) => {
      const images = attachments.take();
      append({
        kind: 'user',
        text: images.length > 0 ? `${text} [+${images.length} image]` : text,
      });
      // The balance before the turn; read now if the first read has not answered yet.
      const known = lastSummary();
      const before = known ?? (await refreshCredits());
      const outcome = await chat.send(model, userMessage(text, images));
      if (!mounted.current) return;
      if (outcome.kind === 'failed') {
        if (outcome.rest) {
          const { model: by, rest, continued } = outcome;
          append({ kind: 'assistant', model: by, text: rest, continued, stopped: true });
        }
        append({ kind: 'error', error: outcome.error });
        return;
      }
      append({
        kind: 'assistant',
        model: outcome.model,
        text: outcome.rest,
        continued: outcome.continued,
        stopped: outcome.kind === 'stopped',
      });
      const tokens = outcome.kind === 'done' ? (outcome.usage?.total_tokens ?? 0) : 0;
      setSessionTokens((total) => total + tokens);
      const after = await refreshCredits();
      if (mounted.current && 'total_used' in before && 'total_used' in after) {
        append({ kind: 'info', lines: [formatTurnCost(tokens, before, after)] });
      }
    },
    [append, attachments, chat, lastSummary, model, refreshCredits],
  );

  const startVideo = useCallback(
    async (videoModel: string, prompt: string) => {
      append({ kind: 'info', lines: [`video ${videoModel}: ${prompt}`] });
      const outcome = await videos.submit(videoModel, prompt);
      if (outcome.kind === 'failed') append({ kind: 'error', error: outcome.error });
      else append({ kind: 'video', prompt: outcome.prompt, task: outcome.task });
      void refreshCredits();
    },
    [append, videos, refreshCredits],
  );

  // One image from the key's first image model; its URL goes to the scrollback.
  const makeImage = useCallback(
    async (prompt: string) => {
      append({ kind: 'info', lines: [`image: ${prompt}`] });
      try {
        const { model: by, response } = await generateImages(client, { prompt, n: 1 });
        append(...imageUrls(response).map((url) => ({ kind: 'image' as const, model: by, url })));
      } catch (error) {
        append({ kind: 'error', error: describeError(error) });
      }
      void refreshCredits();
    },
    [append, client, refreshCredits],
  );

  // The picker offers the text models: a video model cannot answer a chat.
  const openPicker = useCallback(async () => {
    try {
      const list = await client.models.list();
      const models = list.data.filter((m) => m.type === 'text');
      if (mounted.current) setPicker(models.sort((a, b) => a.id.localeCompare(b.id)));
    } catch (error) {
      append({ kind: 'error', error: describeError(error) });
    }
  }, [append, client]);

  const pick = (id: string) => {
    setPicker(null);
    setModel(id);
    append({ kind: 'info', lines: [`model → ${id}`] });
  };

  const attach = useCallback(
    async (path: string | undefined) => {
      if (path === undefined) {
        const names = attachments.files.map((file) => `${file.filename} ${file.url}`);
        return append({ kind: 'info', lines: names.length > 0 ? names : ['nothing attached'] });
      }
      append({ kind: 'info', lines: [`uploading ${path}…`] });
      try {
        const file = await attachments.attach(path);
        const size = `${formatCount(file.size)} bytes`;
        append({ kind: 'info', lines: [`attached ${file.filename} (${size}) ${file.url}`] });
      } catch (error) {
        append({ kind: 'error', error: describeError(error) });
      }
    },
    [append, attachments],
  );

  const run = useCallback(
    async (action: InputAction) => {
      switch (action.kind) {
        case 'prompt':
          return sendPrompt(action.text);
        case 'help':
          return append({ kind: 'info', lines: [...SLASH_HELP] });
        case 'exit':
          return exit();
        case 'clear':
          chat.clear();
          return append({ kind: 'info', lines: ['── new conversation ──'] });
        case 'model':
          if (!action.id) return openPicker();
          setModel(action.id);
          return append({ kind: 'info', lines: [`model → ${action.id}`] });
        case 'attach':
          return attach(action.path);
        case 'detach':
          attachments.clear();
          return append({ kind: 'info', lines: ['attachments dropped'] });
        case 'models':
          try {
            const list = await client.models.list();
            return append({ kind: 'info', lines: formatModelTable(list.data, model) });
          } catch (error) {
            return append({ kind: 'error', error: describeError(error) });
          }
        case 'balance': {
          const result = await refreshCredits();
          return 'total_available' in result
            ? append({ kind: 'info', lines: [formatBalance(result)] })
            : append({ kind: 'error', error: result });
        }
        case 'video':
          return startVideo(action.model, action.prompt);
        case 'image':
          return makeImage(action.prompt);
        case 'invalid':
          return append({
            kind: 'error',
            error: { status: undefined, code: 'invalid_command', message: action.message },
          });
      }
    },
    [
      append,
      attach,
      attachments,
      chat,
      client,
      exit,
      makeImage,
      model,
      openPicker,
      refreshCredits,
      sendPrompt,
      startVideo,
    ],
  );

  const busy = chat.streaming !== null;

  const submit = (line: string) => {
    const action = parseInputLine(line);
    if (!action) return;
    // One answer at a time; slash commands other than a prompt still work while one streams.
    if (busy && action.kind === 'prompt') return;
    setInput('');
    setSubmitted((list) => [...list, line.trim()]);
    void run(action);
  };

  useInput((key, info) => {
    if (picker) return;
    const ctrlC = info.ctrl && key === 'c';
    if (info.escape) {
      chat.stop();
      return;
    }
    if (ctrlC) {
      if (chat.stop()) {
        setExitArmed(true);
        return;
      }
      if (exitArmed) {
        exit();
        return;
      }
      setInput('');
      setExitArmed(true);
      return;
    }
    if (info.ctrl && key === 'd' && input === '') {
      exit();
      return;
    }
    if (exitArmed) setExitArmed(false);
  });

  const hint = exitArmed
    ? 'Press Ctrl+C again to exit'
    : busy
      ? 'Esc to stop'
      : videos.active.length > 0
        ? `${videos.active.length} video task(s) running`
        : attachments.files.length > 0
          ? `${attachments.files.length} image(s) attached`
          : 'Enter to send · /help';

  return (
    <Box flexDirection="column">
      <Static items={entries}>{(entry) => <EntryView key={entry.id} entry={entry} />}</Static>
      {chat.streaming ? <StreamingView {...chat.streaming} /> : null}
      {videos.active.map((video) => (
        <VideoProgressView key={video.key} video={video} />
      ))}
      {picker ? (
        <ModelPicker
          models={picker}
          current={model}
          onSelect={pick}
          onCancel={() => setPicker(null)}
        />
      ) : null}
      <Box borderStyle="round" borderColor={busy ? 'gray' : 'cyan'} paddingX={1} marginTop={1}>
        <PromptInput
          isActive={picker === null}
          value={input}
          onChange={setInput}
          onSubmit={submit}
          history={submitted}
          placeholder={busy ? 'answer streaming… (Esc to stop)' : 'Type a message or /help'}
        />
      </Box>
      <StatusLine
        model={model}
        baseUrl={config.baseUrl}
        sessionTokens={sessionTokens}
        credits={credits}
        hint={hint}
      />
    </Box>
  );
}
