// In-memory video tasks. A task's status is not advanced by timers: it is derived from the time
// elapsed since submit whenever someone looks, so idle tasks cost nothing.

/** The simulator's neutral lifecycle; each provider maps it onto its own status words. */
export type Phase = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface VideoSpec {
  /** Seconds. */
  duration: number;
  width: number;
  height: number;
  /** The first-frame image the submit carried inline (the video starts from it). */
  image?: Buffer | undefined;
}

export interface Task {
  id: string;
  provider: string;
  model: string;
  createdAt: number;
  processingMs: number;
  video: VideoSpec;
  /** Set by a `task-fail` fault: the task ends failed with this message. */
  failMessage: string | null;
  /** Set by a `result-404` fault: the result URL answers 404. */
  result404: boolean;
  cancelledAt: number | null;
  /** Provider-specific fields echoed back in polls (prompt, seed, path kind…). */
  extra: Record<string, unknown>;
}

/** Share of the processing time a task spends queued before it starts running. */
const QUEUED_SHARE = 0.2;
/** Tasks kept at most; the oldest go first (benchmarks submit many). */
const MAX_TASKS = 50_000;

export class TaskStore {
  private readonly tasks = new Map<string, Task>();
  /** Secondary ids (MiniMax file ids) → task id. */
  private readonly aliases = new Map<string, string>();

  add(task: Task): Task {
    if (this.tasks.size >= MAX_TASKS) {
      const oldest = this.tasks.keys().next().value;
      if (oldest !== undefined) this.tasks.delete(oldest);
    }
    this.tasks.set(task.id, task);
    return task;
  }

  /** The task with this id for this provider (ids of other providers are not visible). */
  get(provider: string, id: string): Task | undefined {
    const task = this.tasks.get(id);
    return task && task.provider === provider ? task : undefined;
  }

  /** Registers another id for a task (e.g. the file id of its result). */
  alias(alias: string, taskId: string): void {
    if (this.aliases.size >= MAX_TASKS) this.aliases.clear();
    this.aliases.set(alias, taskId);
  }

  /** The task behind a secondary id. */
  byAlias(provider: string, alias: string): Task | undefined {
    const id = this.aliases.get(alias);
    return id === undefined ? undefined : this.get(provider, id);
  }

  delete(id: string): boolean {
    return this.tasks.delete(id);
  }

  get size(): number {
    return this.tasks.size;
  }
}

export function phaseOf(task: Task, now = Date.now()): Phase {
  if (task.cancelledAt !== null) return 'cancelled';
  const elapsed = now - task.createdAt;
  if (elapsed >= task.processingMs) return task.failMessage !== null ? 'failed' : 'succeeded';
  return elapsed < task.processingMs * QUEUED_SHARE ? 'queued' : 'running';
}

/** Progress as a fraction 0–1 (1 only once finished). */
export function progressOf(task: Task, now = Date.now()): number {
  const phase = phaseOf(task, now);
  if (phase === 'succeeded' || phase === 'failed') return 1;
  if (task.processingMs === 0) return 1;
  return Math.min(0.99, Math.max(0, (now - task.createdAt) / task.processingMs));
}

/** When the task finished (ms), or null while it runs. */
export function finishedAt(task: Task): number | null {
  if (task.cancelledAt !== null) return task.cancelledAt;
  const end = task.createdAt + task.processingMs;
  return Date.now() >= end ? end : null;
}
