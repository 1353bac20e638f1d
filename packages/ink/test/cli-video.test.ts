// `modelgate video …` and `modelgate upload` of the built binary against the real gateway.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type VideoTask } from '@modelgate/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';
import { waitUntil } from './frames.js';
import { writePng } from './images.js';

const gateway = inject('gateway');
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey };
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });
const dir = mkdtempSync(join(tmpdir(), 'modelgate-ink-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectVideo(url: string) {
  const video = await fetch(url);
  expect(video.status).toBe(200);
  expect(video.headers.get('content-type')).toContain('video/mp4');
}

describe('modelgate video', () => {
  it('--wait follows the task and prints only the CDN URL to a pipe', async () => {
    const result = await runCli(['video', 'a red fox', '--model', 'vidu-q2', '--wait'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^https?:\/\/\S+\.mp4\n$/);
    await expectVideo(result.stdout.trim());
  });

  it('uploads a local --image first and submits it as the first frame (--json: the created task)', async () => {
    const image = writePng(dir, 'first-frame.png');
    const result = await runCli(
      [
        'video',
        'the frame comes alive',
        '-m',
        'vidu-q2',
        '--image',
        image,
        '--duration',
        '4',
        '--json',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as { task_id: string; status: string };
    expect(created.status).toBe('pending');
    const taskId = created.task_id;
    expect(taskId).toMatch(/^vt_\w+$/);
    const task = await client.video.generations.retrieve(taskId);
    expect(task.model).toBe('vidu-q2');
  });

  it('prints a task id; cancel, status and list work on it; a second cancel is the gateway error', async () => {
    const submitted = await runCli(['video', 'a slow river', '--model', 'vidu-q2'], { env });
    expect(submitted.code).toBe(0);
    const taskId = submitted.stdout.trim();
    expect(taskId).toMatch(/^vt_\w+$/);

    // Cancelled first, while it still runs (the simulator takes 6 s).
    const cancelled = await runCli(['video', 'cancel', taskId, '--json'], { env });
    expect(cancelled.stderr).toBe('');
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ task_id: taskId, status: 'cancelled' });

    const status = await runCli(['video', 'status', taskId], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^${taskId}  vidu-q2  cancelled  \\d+%`));

    const list = await runCli(['video', 'list', '--limit', '5'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${taskId}  vidu-q2  cancelled`, 'm'));

    const again = await runCli(['video', 'cancel', taskId], { env });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      'modelgate: 409 task_already_final: The task is already cancelled.\n',
    );
  });

  it('Ctrl+C on a pipe leaves the task running and prints its id', async () => {
    const before = new Set(
      (await client.video.generations.list({ limit: 20 })).data.map((t) => t.task_id),
    );
    let started: VideoTask | undefined;
    const result = await runCli(['video', 'an interrupted sunset', '-m', 'vidu-q2', '--wait'], {
      env,
      onSpawn: (child) => {
        void waitUntil(async () => {
          const { data } = await client.video.generations.list({ limit: 20 });
          started = data.find((t) => !before.has(t.task_id));
          return started !== undefined;
        }).then(() => child.kill('SIGINT'));
      },
    });
    expect(started).toBeDefined();
    expect(result.code).toBe(130);
    expect(result.stdout).toBe(`${started?.task_id}\n`);
    expect(result.stderr).toContain(`task ${started?.task_id} left running`);
    const task = await client.video.generations.retrieve(started?.task_id ?? '');
    expect(task.status).not.toBe('cancelled');
  });

  it('--wait exits 3 when the task ends cancelled (here: by someone else)', async () => {
    const before = new Set(
      (await client.video.generations.list({ limit: 20 })).data.map((t) => t.task_id),
    );
    const result = await runCli(['video', 'a comet nobody sees', '-m', 'vidu-q2', '--wait'], {
      env,
      onSpawn: () => {
        void waitUntil(async () => {
          const { data } = await client.video.generations.list({ limit: 20 });
          const started = data.find((t) => !before.has(t.task_id));
          if (started) await client.video.generations.cancel(started.task_id);
          return started !== undefined;
        });
      },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^modelgate: vt_\w+ {2}vidu-q2 {2}cancelled {2}\d+%.*\n$/);
  });

  it('status of an unknown task is the gateway 404', async () => {
    const result = await runCli(['video', 'status', 'vt_doesnotexist'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^modelgate: 404 \w+: .+\n$/);
  });

  it('prints the gateway error for an unknown model and exits 1', async () => {
    const result = await runCli(['video', 'anything', '--model', 'no-such-model'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^modelgate: 404 model_not_found: Unknown video model no-such-model; .*vidu-q2.*\n$/,
    );
  });

  it('needs --model (exit 2)', async () => {
    const result = await runCli(['video', 'no model given'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('video needs --model');
  });
});

describe('modelgate upload', () => {
  it('prints the stored file URL, which serves the bytes', async () => {
    const image = writePng(dir, 'upload.png', 300_000);
    const result = await runCli(['upload', image], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const url = result.stdout.trim();
    expect(url).toMatch(/^https?:\/\/\S+\/files\/file-\w+\.png$/);
    const stored = await fetch(url);
    expect(stored.status).toBe(200);
    expect((await stored.arrayBuffer()).byteLength).toBe(300_000);
  });

  it('shows the gateway refusing a file that is not an image', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not an image');
    const result = await runCli(['upload', text], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^modelgate: 415 \w+: .+\n$/);
  });
});
