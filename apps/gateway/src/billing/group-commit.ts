/**
 * Group commit: calls submitted in the same turn of the event loop, or while a database round trip
 * is in flight, are served by ONE round trip. A batch starts at the end of the current turn
 * (setImmediate: no timer, so no added latency at low load); under load the batch grows by itself,
 * so the database does one statement for many requests. (PGlite runs a query synchronously inside
 * the call, so without the end-of-turn gather every call would find the queue empty.)
 */

/** A result that rejects one item of a batch (the others still get theirs). */
export class ItemFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Runs one batch; returns one result per item, in order (an ItemFailure rejects that item). May
 * throw: every item then rejects.
 */
export type BatchRunner<I, O> = (items: I[]) => Promise<Array<O | ItemFailure>>;

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
  /** Settles (either way) with the item. */
  settled: Promise<unknown>;
}

/**
 * @example
 * const reserve = new GroupCommit(async (items) => items.map(() => true));
 * await reserve.submit({ keyId: 1, units: 5 }); // true
 */
export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private readonly inFlight = new Set<Pending<I, O>[]>();
  private running = 0;
  private scheduled = false;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly run: BatchRunner<I, O>,
    /** Batches in flight at once (1 for PGlite's single connection). */
    private readonly maxInFlight = 1,
    private readonly maxBatch = 512,
    /**
     * 0: gather until the end of the current turn. > 0: write-behind — gather for this long (for
     * work nobody waits on, e.g. settlements after the response was sent): fewer, larger batches.
     */
    private readonly gatherMs = 0,
  ) {}

  private timer: NodeJS.Timeout | null = null;
  /** Someone waits on a queued item: the next batch starts without the gather delay. */
  private urgent = false;

  submit(item: I): Promise<O> {
    let pending!: Pending<I, O>;
    const promise = new Promise<O>((resolve, reject) => {
      pending = { item, resolve, reject, settled: Promise.resolve() };
    });
    pending.settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.queue.push(pending);
    // A full batch gains nothing by gathering longer: waiting would only cap the write rate at
    // maxBatch per gather delay, and the queue would grow without bound above it (pump then
    // starts it at the end of this turn).
    if (this.queue.length >= this.maxBatch) this.cancelGather();
    this.pump();
    return promise;
  }

  /**
   * Resolves once every item queued or running now has been written (or failed), without waiting
   * out the gather delay; items submitted later are not waited for.
   */
  flush(): Promise<void> {
    const waits = [...this.queue, ...[...this.inFlight].flat()].map((p) => p.settled);
    if (waits.length === 0) return Promise.resolve();
    if (this.queue.length > 0) {
      this.urgent = true;
      if (this.cancelGather()) this.startBatches();
      else this.pump();
    }
    return Promise.all(waits).then(() => undefined);
  }

  /**
   * Like submit, for a caller who waits on the result (e.g. a balance read): the gather delay is
   * cut short, so this item and everything queued before it are written at the end of this turn.
   */
  submitNow(item: I): Promise<O> {
    this.urgent = true;
    this.cancelGather();
    return this.submit(item);
  }

  /** Resolves when nothing is queued or running. */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0) return Promise.resolve();
    const idle = new Promise<void>((resolve) => this.idle.add(resolve));
    // Shutting down: do not wait out the gather delay.
    if (this.cancelGather()) this.startBatches();
    return idle;
  }

  /** Stops a pending gather timer; true when there was one (its batch is then not scheduled). */
  private cancelGather(): boolean {
    if (!this.timer) return false;
    clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = false;
    return true;
  }

  private pump(): void {
    if (this.scheduled || this.running >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    if (this.gatherMs > 0 && !this.urgent && this.queue.length < this.maxBatch) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.startBatches();
      }, this.gatherMs);
    } else setImmediate(() => this.startBatches());
  }

  private startBatches(): void {
    this.scheduled = false;
    while (this.running < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.running++;
      void this.execute(batch);
    }
    if (this.queue.length === 0) this.urgent = false;
  }

  private async execute(batch: Pending<I, O>[]): Promise<void> {
    this.inFlight.add(batch);
    try {
      const results = await this.run(batch.map((p) => p.item));
      for (let i = 0; i < batch.length; i++) {
        const result = results[i];
        if (result instanceof ItemFailure) batch[i]!.reject(result.error);
        else batch[i]!.resolve(result as O);
      }
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      this.inFlight.delete(batch);
      this.running--;
      this.pump();
      if (this.queue.length === 0 && this.running === 0) {
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      }
    }
  }
}
