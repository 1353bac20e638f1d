/**
 * The steady mixed load of the chaos run: `size.workers` workers cycle through plain and streamed
 * chats, uploads served through another instance, video submissions (some with an uploaded first
 * frame) and chats of small-quota keys; one more worker sends the rpm-limited key's chats at about
 * ten a second across all instances. Requests go to live instances round-robin, as a load balancer
 * with health checks would send them.
 */
import type { Cluster, Instance } from './cluster.js';
import { chat, type LoadContext, submitVideo, uploadAndServe } from './load.js';
import type { Exchange } from './outcomes.js';
import type { ChaosSize } from './sizes.js';

const TEXT_MODELS = ['gpt-4o-mini', 'claude-haiku-4-5', 'chaos-fast'];
const VIDEO_MODELS = ['kling-v3', 'hailuo-2-3', 'grok-imagine-video', 'wan-2-6'];
const RPM_OP = 'chat (rpm key)';

export interface RunLoad {
  startedAt: number;
  marks: { redisDownAt?: number; redisUpAt?: number };
  exchanges: Exchange[];
  tasks: Set<string>;
  done: Promise<void>;
  /** Answers served to the rpm-limited key against the GCRA bounds (README, Rate limits). */
  rpmFigures(
    rpm: number,
    instances: number,
  ): {
    steady: { seconds: number; accepted: number; bound: number };
    whole: { seconds: number; accepted: number; refused: number; bound: number };
  };
}

export function runLoad(options: {
  cluster: Cluster;
  size: ChaosSize;
  keys: { load: string; rpm: string; quota: string[]; budget: string[] };
  callbackUrl: string;
}): RunLoad {
  const { cluster, size, keys } = options;
  const startedAt = Date.now();
  const exchanges: Exchange[] = [];
  const tasks = new Set<string>();
  const marks: RunLoad['marks'] = {};
  let seq = 0;
  let next = 0;
  const live = () => cluster.instances.filter((i) => i.up);
  const ctx: LoadContext = {
    pick: () => {
      const up = live();
      return up[next++ % up.length]!;
    },
    pickOther: (not: Instance) => {
      const others = live().filter((i) => i !== not);
      return others.length > 0 ? others[next++ % others.length]! : not;
    },
    callbackUrl: options.callbackUrl,
    // Bodies are read for judging, not kept: a full run makes tens of thousands of requests.
    record: ({ body: _body, ...exchange }: Exchange & { body?: string }) => {
      exchanges.push(exchange);
    },
    tasks,
  };
  const running = () => Date.now() - startedAt < size.loadMs && exchanges.length < size.maxRequests;
  const maxTasks = Math.round(size.loadMs / 500);

  const step = async () => {
    const n = seq++;
    const kind = n % 10;
    const model = TEXT_MODELS[n % TEXT_MODELS.length]!;
    if (kind <= 3) await chat(ctx, keys.load, { stream: false, model, op: 'chat', seq: n });
    else if (kind <= 6)
      await chat(ctx, keys.load, { stream: true, model, op: 'chat (stream)', seq: n });
    else if (kind === 7) {
      const url = await uploadAndServe(ctx, keys.load);
      if (url && tasks.size < maxTasks && n % 20 === 7) {
        await submitVideo(ctx, keys.load, 'kling-v3', url, n);
      }
    } else if (kind === 8 && tasks.size < maxTasks) {
      await submitVideo(ctx, keys.load, VIDEO_MODELS[n % VIDEO_MODELS.length]!, null, n);
    } else {
      // Half of them on small quotas, half on budgets (a key's own, and a team's shared by two).
      const budgeted = n % 20 === 19;
      const pool = budgeted ? keys.budget : keys.quota;
      const key = pool[Math.floor(n / 20) % pool.length]!;
      const op = budgeted ? 'chat (budget)' : 'chat (small quota)';
      await chat(ctx, key, { stream: n % 2 === 0, model, op, seq: n });
    }
  };
  const worker = async () => {
    while (running()) await step();
  };
  const rpmWorker = async () => {
    while (running()) {
      const tick = new Promise((r) => setTimeout(r, 100));
      void chat(ctx, keys.rpm, { stream: false, model: 'gpt-4o-mini', op: RPM_OP, seq: seq++ });
      await tick;
    }
  };
  const done = Promise.all([...Array.from({ length: size.workers }, worker), rpmWorker()]).then(
    // Let the rpm worker's last requests land.
    () => new Promise<void>((r) => setTimeout(r, 3_000)),
  );

  return {
    startedAt,
    marks,
    exchanges,
    tasks,
    done,
    rpmFigures(rpm, instances) {
      const rpmExchanges = exchanges.filter((e) => e.op === RPM_OP);
      const served = (list: Exchange[]) => list.filter((e) => e.status === 200).length;
      const downAt = marks.redisDownAt ?? Date.now();
      const upAt = marks.redisUpAt ?? downAt;
      const lastEnd = Math.max(startedAt, ...rpmExchanges.map((e) => e.endedAt));
      const steadySeconds = (downAt - startedAt) / 1000;
      const wholeSeconds = (lastEnd - startedAt) / 1000;
      // Fallback lasts until an instance's probe (at most one a second) finds Redis again.
      const outageSeconds = (upAt - downAt) / 1000 + 2;
      const gcra = (seconds: number) => Math.floor(rpm + (rpm * seconds) / 60);
      return {
        steady: {
          seconds: steadySeconds,
          accepted: served(rpmExchanges.filter((e) => e.endedAt <= downAt)),
          bound: gcra(steadySeconds),
        },
        whole: {
          seconds: wholeSeconds,
          accepted: served(rpmExchanges),
          refused: rpmExchanges.filter((e) => e.status === 429).length,
          bound: gcra(wholeSeconds) + instances * gcra(outageSeconds),
        },
      };
    },
  };
}
