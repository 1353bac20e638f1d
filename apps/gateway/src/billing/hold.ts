/**
 * A hold: what one request holds against its key, from before the upstream call until it is
 * settled (the cost of what the client got) or refunded (nothing reached it), exactly once. The
 * one way text, images and embeddings charge. The charge is in this instance's journal when
 * `settle` returns, so an answer sent after it never goes unbilled; the database write runs behind,
 * tracked so that shutdown waits for it, and a failed write is logged (the journal still has it).
 */
import type { Logger } from '../observability/logger.js';
import type { UsageMeta } from './statements.js';

/** What a hold is for: the usage row's kind and the request it charges. */
export interface HoldPurpose {
  kind: NonNullable<UsageMeta['kind']>;
  requestId: string;
  model?: string;
}

/** The usage row's figures beyond the purpose. */
export type HoldUsage = Omit<UsageMeta, 'kind' | 'requestId' | 'model'>;

/** The ledger calls a hold makes (billing.ts's journaled path). */
export interface HoldLedger {
  settle(
    keyId: number,
    reserved: number,
    units: number,
    meta: UsageMeta,
    budgetAt: number | null,
  ): Promise<unknown>;
  refund(
    keyId: number,
    reserved: number,
    meta: UsageMeta | undefined,
    budgetAt: number | null,
  ): Promise<void>;
}

/** The writes still running behind settled holds, so that shutdown can wait for them. */
export class BackgroundWrites {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: Logger | undefined) {}

  /** Runs `work` behind the caller; a failure is logged as `what failed`. */
  track(work: Promise<unknown>, what: string, requestId: string): void {
    const quiet = work.then(
      () => {},
      (err: unknown) => this.log?.error(`${what} failed`, { request_id: requestId, err }),
    );
    this.running.add(quiet);
    void quiet.finally(() => this.running.delete(quiet));
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

export class Hold {
  private done = false;

  constructor(
    private readonly ledger: HoldLedger,
    private readonly writes: BackgroundWrites,
    readonly keyId: number,
    /** Quota units reserved for the request's worst case. */
    readonly reserved: number,
    readonly purpose: HoldPurpose,
    /** A budgeted reservation's instant (Unix seconds): settling gives the budgets their part back. */
    readonly budgetAt: number | null = null,
  ) {}

  /** Whether it has been settled or refunded. */
  get closed(): boolean {
    return this.done;
  }

  /**
   * Replaces the reservation by `units` and records the usage row. A second call (or one after
   * `refund`) does nothing and returns false.
   * @example hold.settle(costUnits(price, usage), { inputTokens: 10, outputTokens: 20 });
   */
  settle(units: number, usage: HoldUsage = {}): boolean {
    if (this.done) return false;
    this.done = true;
    const { kind, requestId, model } = this.purpose;
    const meta: UsageMeta = { kind, requestId, ...(model ? { model } : {}), ...usage };
    // The ledger journals the charge before its first await: in the journal when this returns.
    this.writes.track(
      this.ledger.settle(this.keyId, this.reserved, units, meta, this.budgetAt),
      `${kind} settlement`,
      requestId,
    );
    return true;
  }

  /**
   * Gives the whole reservation back: nothing reached the client. Does nothing (false) once closed.
   * @example if (!answered) hold.refund();
   */
  refund(): boolean {
    if (this.done) return false;
    this.done = true;
    const { kind, requestId, model } = this.purpose;
    // A budgeted refund is a journaled settlement of 0: its usage row (0 units) names the request.
    const meta =
      this.budgetAt === null ? undefined : { kind, requestId, ...(model ? { model } : {}) };
    this.writes.track(
      this.ledger.refund(this.keyId, this.reserved, meta, this.budgetAt),
      `${kind} refund`,
      requestId,
    );
    return true;
  }
}
