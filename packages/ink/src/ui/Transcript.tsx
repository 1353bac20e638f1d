// How each finished item of the conversation looks. Finished items are printed once (Ink's <Static>);
// only the streaming answer and running video tasks are redrawn.
import type { VideoTask } from '@modelgate/core';
import { Box, Text, useStdout } from 'ink';
import type { ErrorInfo } from '../errors.js';
import { formatError } from '../errors.js';
import { progressBar } from '../format.js';
import { type MarkdownSegment, splitMarkdown } from './markdown.js';
import { tailThatFits } from './tail.js';
import type { StreamingAnswer } from './use-chat-session.js';
import type { ActiveVideo } from './use-video-tasks.js';

/** One finished item of the scrollback. */
export type Entry =
  | { id: number; kind: 'user'; text: string }
  | {
      id: number;
      kind: 'assistant';
      model: string;
      text: string;
      stopped: boolean;
      /** A later part of an answer whose beginning is already printed: no model header. */
      continued?: boolean;
    }
  | { id: number; kind: 'error'; error: ErrorInfo }
  | { id: number; kind: 'info'; lines: string[] }
  | { id: number; kind: 'video'; prompt: string; task: VideoTask }
  | { id: number; kind: 'image'; model: string; url: string };

export function EntryView({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>
            {'› '}
          </Text>
          <Text>{entry.text}</Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box flexDirection="column" marginTop={entry.continued ? 1 : 0}>
          {entry.continued ? null : <Text color="magenta">{entry.model}</Text>}
          {entry.text ? <MarkdownView text={entry.text} /> : null}
          {entry.stopped ? <Text dimColor>[stopped]</Text> : null}
        </Box>
      );
    case 'error':
      return (
        <Text color="red">
          {'✗ Error '}
          {formatError(entry.error)}
        </Text>
      );
    case 'info':
      return (
        <Box flexDirection="column">
          {entry.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines never change once printed.
            <Text key={index} dimColor>
              {line}
            </Text>
          ))}
        </Box>
      );
    case 'video':
      return <FinishedVideo prompt={entry.prompt} task={entry.task} />;
    case 'image':
      // The URL on a line of its own, so a terminal can open it.
      return (
        <Box flexDirection="column">
          <Text color="green">✓ image {entry.model}</Text>
          <Text>{entry.url}</Text>
        </Box>
      );
  }
}

/** Prose as it is; each fenced code block in a box, its language on top, the code in color. */
export function MarkdownView({ text }: { text: string }) {
  return (
    <Box flexDirection="column">
      {splitMarkdown(text).map((segment, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a finished answer's segments never change.
        <SegmentView key={index} segment={segment} />
      ))}
    </Box>
  );
}

function SegmentView({ segment }: { segment: MarkdownSegment }) {
  if (segment.kind === 'text') return <Text>{segment.text}</Text>;
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="gray" paddingX={1}>
      {segment.language ? <Text dimColor>{segment.language}</Text> : null}
      <Text color="yellow">{segment.code}</Text>
    </Box>
  );
}

function FinishedVideo({ prompt, task }: { prompt: string; task: VideoTask }) {
  if (task.status === 'completed' && task.video) {
    const v = task.video;
    return (
      <Box flexDirection="column">
        <Text color="green">
          ✓ video {task.model} {task.task_id} completed ({v.duration}s, {v.width}x{v.height})
        </Text>
        <Text>{v.url}</Text>
      </Box>
    );
  }
  const reason = task.error ? `${task.error.code}: ${task.error.message}` : task.status;
  return (
    <Text color="red">
      ✗ video {task.model} {task.task_id} {task.status} — {reason} ({prompt})
    </Text>
  );
}

/**
 * The answer while it streams: the model name, the paragraph being written, a cursor. Only the tail
 * that fits the terminal is drawn (Ink repaints the whole screen when its output is taller than the
 * terminal); the whole answer goes to the scrollback when it ends.
 */
export function StreamingView({ model, text, continued }: StreamingAnswer) {
  const { stdout } = useStdout();
  const shown = tailThatFits(text, stdout.columns || 80, (stdout.rows || Infinity) - 8);
  return (
    <Box flexDirection="column" marginTop={continued ? 1 : 0}>
      {continued ? null : <Text color="magenta">{model}</Text>}
      <Text>
        {shown}
        <Text dimColor>▍</Text>
      </Text>
    </Box>
  );
}

/** A running video task: status and a progress bar, redrawn on every poll; fits 80 columns. */
export function VideoProgressView({ video }: { video: ActiveVideo }) {
  const task = video.task;
  const status = task ? task.status : 'submitting';
  const percent = task?.progress ?? 0;
  return (
    <Text>
      <Text color="yellow">◌ video {video.model}</Text> {task ? `${task.task_id} ` : ''}
      {status} {progressBar(percent, 10)} {Math.round(percent)}%
    </Text>
  );
}
