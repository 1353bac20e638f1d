/**
 * This instance's leases: per key, units reserved ahead in the database (in this instance's hold)
 * so that most reservations are answered from memory. A reservation the lease cannot cover refills
 * it with one statement; near the key's limit no lease is granted and every reservation is its own
 * conditional UPDATE. The lease of a key that stays idle goes back to the balance (`onIdle`).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import {
  BUDGETED,
  reserveOne,
  reserveWithLease,
  type SettleItem,
  type UsageMeta,
} from './statements.js';

/** Lease size, in multiples of the reservation that needed it. */
const LEASE_CHUNK_FACTOR = 32;
/** A lease is granted only while at least this many lease sizes of balance would remain. */
const LEASE_HEADROOM = 64;

/**
 * This instance's lease on one key. `available` units are in the key's `used` (and in this
 * instance's hold) but held by no request; `holders` counts the reservations made here and not yet
 * settled. While `leased`, the key's `used` is over-stated by `available` (never under-stated); it
 * is exact again once the key is idle here and the lease has been returned.
 */
interface KeyLease {
  available: number;
  holders: number;
  leased: boolean;
  /** The last round trip granted no lease (near the limit): no point queueing behind refills. */
  exact: boolean;
  /** Units of the reservations waiting for the refill in flight: the next refill covers them. */
  waiting: number;
  refill: Promise<unknown> | null;
  /** Returns the lease once the key has stayed idle for `idleMs`. */
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** A budget binds the key: its reservations skip the lease (billing.ts reserves them). */
  budgeted: boolean;
}

/**
 * How a settlement leaves the hold: `leased` when the charge comes out of the lease (the database
 * only moves it from the hold to a usage row), otherwise it is settled against the balance.
 */
export interface SettlementPlan {
  item: SettleItem;
  leased: boolean;
}

export interface LeaseBookOptions {
  /** How long an idle key keeps its lease (0 = returned at once). */
  idleMs: number;
  /** Called when a key's lease has been idle for `idleMs`: the caller queues its return. */
  onIdle: (keyId: number) => void;
}

/**
 * @example
 * const leases = new LeaseBook(db, owner, { idleMs: 5_000, onIdle: (id) => returnLease(id) });
 * if (!(await leases.reserve(keyId, 2_000))) throw insufficientQuota();
 */
export class LeaseBook {
  private readonly leases = new Map<number, KeyLease>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly owner: string,
    private readonly options: LeaseBookOptions,
  ) {}

  /**
   * Reserves `units` from the lease, or with one statement when it cannot cover them;
   * {@link BUDGETED} (nothing reserved) when a budget binds the key.
   */
  reserve(keyId: number, units: number): Promise<boolean | typeof BUDGETED> {
    const lease = this.leases.get(keyId);
    if (lease?.budgeted) return Promise.resolve(BUDGETED);
    if (lease && lease.available >= units) return Promise.resolve(this.take(lease, units));
    return this.reserveFromDb(this.leaseOf(keyId), keyId, units);
  }

  /**
   * Decides, synchronously, what a settlement takes from the hold, and updates the lease to match.
   */
  planSettlement(keyId: number, reserved: number, actual: number, meta: UsageMeta): SettlementPlan {
    const lease = this.leases.get(keyId);
    if (lease?.leased && actual <= reserved + lease.available) {
      // The reservation returns to the lease and the charge comes out of it: in the database the
      // charge just moves from the hold to a usage row.
      lease.available += reserved - actual;
      this.release(keyId, lease);
      return { item: { keyId, reserved: actual, actual, meta }, leased: true };
    }
    if (lease?.leased) {
      // Costlier than reservation and lease together: settle all we hold against the balance.
      const held = reserved + lease.available;
      lease.available = 0;
      this.release(keyId, lease);
      return { item: { keyId, reserved: held, actual, meta }, leased: false };
    }
    if (lease) lease.holders = Math.max(0, lease.holders - 1);
    return { item: { keyId, reserved, actual, meta }, leased: false };
  }

  /** Whether a budget binds the key (learned from the database's answers). */
  setBudgeted(keyId: number, budgeted: boolean): void {
    this.leaseOf(keyId).budgeted = budgeted;
  }

  /** Gives a reservation back to the lease; false when the key has none (release it from the hold). */
  refund(keyId: number, units: number): boolean {
    const lease = this.leases.get(keyId);
    if (lease?.leased) {
      lease.available += units;
      this.release(keyId, lease);
      return true;
    }
    if (lease) lease.holders = Math.max(0, lease.holders - 1);
    return false;
  }

  /**
   * True when the key's lease is idle here (leased, no reservation held): its idle timer is
   * stopped and the caller queues its return.
   */
  claimIdle(keyId: number): boolean {
    const lease = this.leases.get(keyId);
    if (!lease?.leased || lease.holders > 0) return false;
    this.cancelIdleTimer(lease);
    return true;
  }

  /** Every key whose lease is idle here, their idle timers stopped (see {@link claimIdle}). */
  claimAllIdle(): number[] {
    return [...this.leases.keys()].filter((keyId) => this.claimIdle(keyId));
  }

  /** Takes an idle lease out of memory for its return; undefined when it is no longer idle. */
  detachIdle(keyId: number): number | undefined {
    const lease = this.leases.get(keyId);
    if (!lease?.leased || lease.holders > 0) return undefined;
    const units = lease.available;
    lease.available = 0;
    lease.leased = false;
    return units;
  }

  /** Puts back a detached lease whose return was not written (returned with a later batch). */
  restore(keyId: number, units: number): void {
    const lease = this.leaseOf(keyId);
    lease.available += units;
    lease.leased = true;
  }

  /** The database no longer counts this instance's holds: drop the leases they backed. */
  forget(): void {
    for (const lease of this.leases.values()) {
      this.cancelIdleTimer(lease);
      lease.available = 0;
      lease.leased = false;
    }
  }

  private leaseOf(keyId: number): KeyLease {
    let lease = this.leases.get(keyId);
    if (!lease) {
      lease = {
        available: 0,
        holders: 0,
        leased: false,
        exact: false,
        waiting: 0,
        refill: null,
        idleTimer: null,
        budgeted: false,
      };
      this.leases.set(keyId, lease);
    }
    return lease;
  }

  private take(lease: KeyLease, units: number): true {
    lease.available -= units;
    lease.holders++;
    this.cancelIdleTimer(lease);
    return true;
  }

  /** A reservation the lease cannot cover: one statement (a refill, or exact near the limit). */
  private async reserveFromDb(
    lease: KeyLease,
    keyId: number,
    units: number,
  ): Promise<boolean | typeof BUDGETED> {
    // One refill per key at a time; the others wait for it and try the lease again.
    while (lease.refill && !lease.exact) {
      lease.waiting += units;
      await lease.refill.catch(() => {});
      lease.waiting -= units;
      if (lease.budgeted) return BUDGETED;
      if (lease.available >= units) return this.take(lease, units);
    }
    // Sized for what queued behind the last refill too: a burst of requests on one key (a
    // thousand streams opening at once) then takes a few round trips, not one per 32 requests.
    const chunk = Math.max(units * LEASE_CHUNK_FACTOR, lease.waiting * 2);
    const refill = reserveWithLease(this.db, keyId, units, chunk, LEASE_HEADROOM, this.owner);
    lease.refill = refill;
    let granted: number | null | typeof BUDGETED;
    try {
      granted = await refill;
    } finally {
      if (lease.refill === refill) lease.refill = null;
    }
    if (granted === BUDGETED) {
      lease.budgeted = true;
      return BUDGETED;
    }
    lease.exact = !granted;
    if (granted !== null) {
      lease.holders++;
      if (granted > 0) {
        lease.available += granted;
        lease.leased = true;
      }
      return true;
    }
    return this.reserveRefused(lease, keyId, units);
  }

  /** The balance refused a refill: what the lease still holds may cover the part it cannot. */
  private async reserveRefused(lease: KeyLease, keyId: number, units: number): Promise<boolean> {
    if (
      lease.available > 0 &&
      (await reserveOne(this.db, keyId, units - lease.available, this.owner))
    ) {
      lease.available = 0;
      lease.holders++;
      return true;
    }
    return false;
  }

  /** Ends one holder's reservation on a leased key; the lease goes back once the key stays idle. */
  private release(keyId: number, lease: KeyLease): void {
    lease.holders = Math.max(0, lease.holders - 1);
    if (lease.holders > 0) return;
    this.cancelIdleTimer(lease);
    if (this.options.idleMs <= 0) {
      this.options.onIdle(keyId);
      return;
    }
    lease.idleTimer = setTimeout(() => {
      lease.idleTimer = null;
      if (lease.holders === 0 && lease.leased) this.options.onIdle(keyId);
    }, this.options.idleMs);
    // Never keeps the process alive: drain() returns every idle lease at shutdown.
    lease.idleTimer.unref?.();
  }

  private cancelIdleTimer(lease: KeyLease): void {
    if (lease.idleTimer) clearTimeout(lease.idleTimer);
    lease.idleTimer = null;
  }
}
