/**
 * Fault injection: rules that make the simulator misbehave on purpose, so the gateway's retry,
 * failover, timeout and task-failure paths can be exercised against a real socket.
 */

/** Which requests a fault applies to. Both fields are optional; an empty match applies to all. */
export interface FaultMatch {
  /** Path prefix, e.g. `/openai/v1/chat/completions` or `/minimax`. */
  path?: string;
  /** Exact upstream model id taken from the request (body `model`/`model_name`, or the URL for Gemini). */
  model?: string;
}

interface FaultBase {
  match?: FaultMatch;
  /** Apply to the next `count` matching requests, then disappear. Omitted = always. */
  count?: number;
}

/** Answer with an HTTP error status in the provider's own error shape. */
export interface StatusFault extends FaultBase {
  kind: 'status';
  status: number;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  message?: string;
}
/** Accept the request and never answer (the client must time out or abort). */
export interface HangFault extends FaultBase {
  kind: 'hang';
}
/** Destroy the socket after `afterChunks` stream chunks (non-streamed answers: after half the body). */
export interface DropMidStreamFault extends FaultBase {
  kind: 'drop-mid-stream';
  afterChunks: number;
}
/**
 * After `afterChunks` stream chunks, send the provider's in-stream error event (OpenAI: a `data:`
 * line with an `error` key; Anthropic: `event: error` overloaded_error) and end the stream.
 */
export interface StreamErrorFault extends FaultBase {
  kind: 'stream-error';
  afterChunks: number;
  message?: string;
}
/**
 * Handle the request normally (a video submit creates its task) and never send the answer: the
 * client sees a request that the provider took but that it cannot know about (it must time out,
 * or it crashes first, which is what the gateway's crash tests need).
 */
export interface LoseResponseFault extends FaultBase {
  kind: 'lose-response';
}
/** Wait `ms` before handling the request normally. */
export interface DelayFault extends FaultBase {
  kind: 'delay';
  ms: number;
}
/** Video: the task submitted by the matching request ends in the provider's failed status. */
export interface TaskFailFault extends FaultBase {
  kind: 'task-fail';
  message?: string;
}
/** Video: the result URL of the task submitted by the matching request answers 404. */
export interface Result404Fault extends FaultBase {
  kind: 'result-404';
}

export type Fault =
  | StatusFault
  | HangFault
  | DropMidStreamFault
  | DelayFault
  | LoseResponseFault
  | StreamErrorFault
  | TaskFailFault
  | Result404Fault;

export type FaultKind = Fault['kind'];

/** A fault as stored: with its id and how many uses remain (`null` = unlimited). */
export type ActiveFault = Fault & { id: string; remaining: number | null };

/** Kinds applied by the dispatcher to any request. */
export const REQUEST_FAULT_KINDS: readonly FaultKind[] = [
  'status',
  'hang',
  'drop-mid-stream',
  'stream-error',
  'delay',
  'lose-response',
];
/** Kinds consumed when a video task is submitted; they mark the task. */
export const TASK_FAULT_KINDS: readonly FaultKind[] = ['task-fail', 'result-404'];

const KINDS = new Set<string>([...REQUEST_FAULT_KINDS, ...TASK_FAULT_KINDS]);

/** Thrown (as a value with `status`/`code`) when a fault definition is malformed. */
export class FaultDefinitionError extends Error {
  readonly status = 400;
  readonly code = 'invalid_fault';
}

/**
 * Holds the active faults. Shared by the HTTP control endpoint (`/__sim/faults`) and the
 * programmatic handle returned by `startSimulator`.
 *
 * @example
 * const sim = await startSimulator();
 * sim.faults.add({ kind: 'status', status: 429, retryAfter: 2, count: 1, match: { path: '/openai' } });
 * sim.faults.clear();
 */
export class FaultController {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  /** Adds a fault; returns its id (use it with `remove`). Throws FaultDefinitionError if malformed. */
  add(fault: Fault): string {
    validateFault(fault);
    const id = `fault_${this.nextId++}`;
    const remaining = fault.count === undefined || fault.count === null ? null : fault.count;
    this.faults.push({ ...fault, id, remaining });
    return id;
  }

  /** Removes one fault by id; returns whether it existed. */
  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  /** Removes every fault. */
  clear(): void {
    this.faults = [];
  }

  /** The active faults, oldest first. */
  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Whether any fault is active: lets the hot path skip matching entirely. */
  get size(): number {
    return this.faults.length;
  }

  /**
   * Finds the oldest fault of one of `kinds` matching this request and consumes one use of it.
   * @internal used by the dispatcher and the video submit handlers.
   */
  take(
    kinds: readonly FaultKind[],
    path: string,
    model: string | undefined,
  ): ActiveFault | undefined {
    if (this.faults.length === 0) return undefined;
    for (let i = 0; i < this.faults.length; i++) {
      const fault = this.faults[i]!;
      if (!kinds.includes(fault.kind)) continue;
      const match = fault.match;
      if (match?.path !== undefined && !path.startsWith(match.path)) continue;
      if (match?.model !== undefined && match.model !== model) continue;
      if (fault.remaining !== null) {
        fault.remaining -= 1;
        if (fault.remaining <= 0) this.faults.splice(i, 1);
      }
      return fault;
    }
    return undefined;
  }
}

function validateFault(fault: Fault): void {
  if (typeof fault !== 'object' || fault === null)
    throw new FaultDefinitionError('fault must be an object');
  if (!KINDS.has(fault.kind)) {
    throw new FaultDefinitionError(`kind must be one of ${[...KINDS].join(', ')}`);
  }
  if (fault.count !== undefined && (!Number.isInteger(fault.count) || fault.count < 1)) {
    throw new FaultDefinitionError('count must be a positive integer');
  }
  if (fault.match !== undefined && (typeof fault.match !== 'object' || fault.match === null)) {
    throw new FaultDefinitionError('match must be an object');
  }
  if (
    fault.kind === 'status' &&
    (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599)
  ) {
    throw new FaultDefinitionError('status must be an HTTP error status (400-599)');
  }
  if (
    fault.kind === 'drop-mid-stream' &&
    (!Number.isInteger(fault.afterChunks) || fault.afterChunks < 0)
  ) {
    throw new FaultDefinitionError('afterChunks must be a non-negative integer');
  }
  if (fault.kind === 'delay' && (typeof fault.ms !== 'number' || fault.ms < 0)) {
    throw new FaultDefinitionError('ms must be a non-negative number');
  }
}
