// `modelgate video …`: submit a task (and follow it with --wait), and status / list / cancel.
import type { CreateVideoGenerationRequest, ModelgateClient, VideoTask } from '@modelgate/core';
import { waitForVideoTask } from '@modelgate/stream';
import { isAbortError } from '../errors.js';
import { formatTaskLine } from '../format.js';
import { isUrl, uploadImage } from '../upload.js';
import { ask, type CommandIO, ExitCode, reportFailure } from './io.js';
import { progressLine } from './progress.js';

/** Between two reads of the task with `--wait` (± jitter; failed reads back off longer). */
const DEFAULT_POLL_MS = 1000;

export interface VideoCommandInput {
  client: ModelgateClient;
  model: string;
  prompt: string;
  /** A URL passed on as `image_url`, or a local file uploaded first. */
  image?: string | undefined;
  duration?: number | undefined;
  /** Follow the task to its end and print the video's URL (else print the task id). */
  wait: boolean;
  /** Print the gateway's JSON (the created task; with `wait`, the final task) instead of text. */
  json?: boolean | undefined;
  /** Between two polls with `wait`. Default 1000 ms, ± 20 % jitter; failed reads back off further. */
  pollMs?: number;
}

/**
 * Submits a video task. Without `wait` prints its id; with `wait` draws a progress bar on a
 * terminal and prints the CDN URL when it completes (exit 3 when it fails or is cancelled).
 * Ctrl+C while waiting asks on a terminal whether to cancel the task; elsewhere the task is left
 * running and its id printed.
 *
 * @example
 * ```ts
 * process.exitCode = await runVideoCommand({ client, model: 'vidu-q2', prompt: 'a red fox', wait: true }, process);
 * ```
 */
export async function runVideoCommand(input: VideoCommandInput, io: CommandIO): Promise<number> {
  let taskId: string;
  try {
    const imageUrl = await resolveImage(input, io);
    const body: CreateVideoGenerationRequest = {
      // The gateway checks the id and answers 400 with the models it knows.
      model: input.model as CreateVideoGenerationRequest['model'],
      prompt: input.prompt,
      ...(imageUrl === undefined ? {} : { image_url: imageUrl }),
      ...(input.duration === undefined ? {} : { duration: input.duration }),
    };
    const created = await input.client.video.generations.create(body, { signal: io.signal });
    taskId = created.task_id;
    if (!input.wait) {
      io.stdout.write(`${input.json ? JSON.stringify(created, null, 2) : taskId}\n`);
      return ExitCode.ok;
    }
  } catch (error) {
    return isAbortError(error) ? ExitCode.interrupted : reportFailure(io, error);
  }
  return follow(input, taskId, io);
}

async function resolveImage(input: VideoCommandInput, io: CommandIO): Promise<string | undefined> {
  if (input.image === undefined || isUrl(input.image)) return input.image;
  const line = progressLine(io, `upload ${input.image}`);
  try {
    const file = await uploadImage(input.client, input.image, {
      signal: io.signal,
      onProgress: (sent, total) => line.update(total === 0 ? 100 : (sent / total) * 100),
    });
    return file.url;
  } finally {
    line.done();
  }
}

async function follow(input: VideoCommandInput, taskId: string, io: CommandIO): Promise<number> {
  const line = progressLine(io, `${input.model} ${taskId}`);
  let task: VideoTask;
  try {
    task = await waitForVideoTask(input.client, taskId, {
      intervalMs: input.pollMs ?? DEFAULT_POLL_MS,
      signal: io.signal,
      onProgress: (update) => line.update(update.progress, update.status),
    });
  } catch (error) {
    line.done();
    if (isAbortError(error)) return interrupted(input.client, taskId, io);
    reportFailure(io, error);
    io.stderr.write(`modelgate: the task may still run: modelgate video status ${taskId}\n`);
    return ExitCode.failed;
  }
  line.done();
  if (input.json) io.stdout.write(`${JSON.stringify(task, null, 2)}\n`);
  if (task.status === 'completed' && input.json) return ExitCode.ok;
  if (task.status === 'completed' && task.video) {
    io.stdout.write(`${task.video.url}\n`);
    return ExitCode.ok;
  }
  io.stderr.write(`modelgate: ${formatTaskLine(task)}\n`);
  return ExitCode.taskFailed;
}

/** Ctrl+C while following: a terminal is asked, anything else leaves the task running. */
async function interrupted(
  client: ModelgateClient,
  taskId: string,
  io: CommandIO,
): Promise<number> {
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const answer = interactive
    ? await ask(io, `Cancel task ${taskId} on the gateway? [y/N] (Ctrl+C again leaves it running) `)
    : '';
  if (/^y(es)?$/i.test(answer)) {
    try {
      const task = await client.video.generations.cancel(taskId);
      io.stderr.write(`modelgate: ${formatTaskLine(task)}\n`);
    } catch (error) {
      reportFailure(io, error);
    }
    return ExitCode.interrupted;
  }
  io.stderr.write(`modelgate: task ${taskId} left running (modelgate video status ${taskId})\n`);
  io.stdout.write(`${taskId}\n`);
  return ExitCode.interrupted;
}

export interface TaskCommandInput {
  client: ModelgateClient;
  json: boolean;
}

/** `modelgate video status <id>`: one line (or the task's JSON). */
export function runVideoStatusCommand(
  input: TaskCommandInput & { taskId: string },
  io: CommandIO,
): Promise<number> {
  return printTask(io, input.json, () =>
    input.client.video.generations.retrieve(input.taskId, { signal: io.signal }),
  );
}

/** `modelgate video cancel <id>`: cancels and prints the task as it is now. */
export function runVideoCancelCommand(
  input: TaskCommandInput & { taskId: string },
  io: CommandIO,
): Promise<number> {
  return printTask(io, input.json, () =>
    input.client.video.generations.cancel(input.taskId, { signal: io.signal }),
  );
}

/** `modelgate video list`: the key's tasks, newest first, one a line (or the page's JSON). */
export async function runVideoListCommand(
  input: TaskCommandInput & { limit?: number | undefined },
  io: CommandIO,
): Promise<number> {
  try {
    const page = await input.client.video.generations.list(
      input.limit === undefined ? {} : { limit: input.limit },
      { signal: io.signal },
    );
    const lines = input.json ? [JSON.stringify(page, null, 2)] : page.data.map(formatTaskLine);
    if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(io, error);
  }
}

async function printTask(io: CommandIO, json: boolean, load: () => Promise<VideoTask>) {
  try {
    const task = await load();
    io.stdout.write(`${json ? JSON.stringify(task, null, 2) : formatTaskLine(task)}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(io, error);
  }
}
