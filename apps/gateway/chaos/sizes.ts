/** The two sizes of the chaos run: `short` for CI (under ~4 minutes on two cores) and `full`. */
export interface ChaosSize {
  name: 'short' | 'full';
  /** How long the mixed load runs. */
  loadMs: number;
  /** A safety cap on client requests: the load stops at whichever bound comes first (normally time). */
  maxRequests: number;
  /** Concurrent load workers. */
  workers: number;
  /** One new upstream fault every this many ms. */
  faultEveryMs: number;
  /** How long "Redis" is away. */
  redisDownMs: number;
  /** How long "PostgreSQL" refuses connections while restarting. */
  postgresDownMs: number;
  /** A video task's deadline. */
  videoDeadlineMs: number;
}

export const SIZES: Record<ChaosSize['name'], ChaosSize> = {
  short: {
    name: 'short',
    loadMs: 60_000,
    // A quiet machine answers ~300 requests/s (the PostgreSQL outage's 503s fastest of all): the cap
    // stays well above 60 s of that, so the run lasts long enough for every disruption.
    maxRequests: 40_000,
    workers: 6,
    faultEveryMs: 1_500,
    redisDownMs: 8_000,
    postgresDownMs: 3_000,
    videoDeadlineMs: 60_000,
  },
  full: {
    name: 'full',
    loadMs: 240_000,
    maxRequests: 100_000,
    workers: 10,
    faultEveryMs: 1_000,
    redisDownMs: 20_000,
    postgresDownMs: 5_000,
    videoDeadlineMs: 90_000,
  },
};

export function chaosSize(): ChaosSize {
  const name = process.env.CHAOS_SIZE ?? 'short';
  if (name !== 'short' && name !== 'full') throw new Error(`CHAOS_SIZE must be short or full`);
  return SIZES[name];
}
