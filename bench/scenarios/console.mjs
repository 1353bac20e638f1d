// Scenario 6 — console at scale: what each screen of the operator console asks the gateway for,
// timed on PostgreSQL holding 10,000 keys and 1,000,000 usage rows spread over 30 days. Each call
// is timed one at a time (the console asks for one page at once), and set against the floor of an
// admin call: the cheapest authenticated route (`credit_grants`, one key lookup), so a ratio says
// how many of the cheapest requests a screen costs. Pagination and aggregation are the gateway's:
// a page is at most 100 rows, a usage chart at most 744 buckets.
import pg from 'pg';
import { summarize } from '../lib/stats.mjs';
import { startTarget, stopTarget } from '../lib/targets.mjs';

/** The scale the console is held to; `--quick` seeds a tenth of it. */
const FULL = { keys: 10_000, usageRows: 1_000_000 };
const DAYS = 30;
const TEAMS = 500;
const MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-4.1',
  'claude-haiku-4-5',
  'claude-sonnet-4-5',
  'gemini-2.5-flash',
  'text-embedding-3-small',
  'gpt-image-1',
];

/**
 * Teams, keys and usage rows written straight into the database in five statements (the API would take
 * minutes to write a million rows); each key's `used` is the sum of its rows, as the ledger keeps it.
 * Row ids rise with time, as the gateway writes them.
 */
export async function seed(databaseUrl, now, { keys: KEYS, usageRows: USAGE_ROWS } = FULL) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const models = `array[${MODELS.map((m) => `'${m}'`).join(',')}]`;
    // 500 teams of 20 keys, each key in the team its name says, for the per-team report (one
    // insert on a fresh database numbers its rows consecutively, as the keys' ids are below).
    const teams = await client.query(
      `insert into teams (name, created_at)
       select 'team-' || t, $1::bigint from generate_series(0, ${TEAMS - 1}) as t
       returning id`,
      [now - DAYS * 86_400],
    );
    const firstTeam = Math.min(...teams.rows.map((r) => Number(r.id)));
    await client.query(
      `insert into api_keys (key_hash, key_prefix, name, role, quota, used, created_at, team_id)
       select md5('bench-key-' || i), 'sk-bench' || i, 'team-' || (i % ${TEAMS}) || '-key-' || i,
              'user', 1000000000000, 0, $1::bigint - (${KEYS} - i), ${firstTeam} + i % ${TEAMS}
       from generate_series(1, ${KEYS}) as i`,
      [now - DAYS * 86_400],
    );
    const { rows } = await client.query(
      `select min(id) as lo, max(id) as hi from api_keys where key_prefix like 'sk-bench%'`,
    );
    const [lo, hi] = [Number(rows[0].lo), Number(rows[0].hi)];
    await client.query(
      `insert into usage (key_id, kind, model, input_tokens, output_tokens, units, request_id, created_at)
       select ${lo} + (hashint % ${hi - lo + 1}), 'text', (${models})[1 + i % ${MODELS.length}],
              100 + i % 900, 10 + i % 300, 50 + i % 5000, 'req_bench_' || i,
              $1::bigint - ((${USAGE_ROWS} - i)::bigint * ${DAYS * 86_400} / ${USAGE_ROWS})
       from (select i, abs(hashtext(i::text)) as hashint from generate_series(1, ${USAGE_ROWS}) as i) s`,
      [now],
    );
    await client.query(
      `update api_keys k set used = u.units
       from (select key_id, sum(units) as units from usage group by key_id) u where u.key_id = k.id`,
    );
    await client.query('analyze');
    return { lo, hi };
  } finally {
    await client.end();
  }
}

/** The calls the console's screens make, each a path under the gateway's origin. */
function consoleCalls(now, keyId, requestId) {
  const month = `start_time=${now - DAYS * 86_400}&end_time=${now}`;
  const week = `start_time=${now - 7 * 86_400}&end_time=${now}`;
  return {
    'keys: first page (50)': '/v1/keys?limit=50',
    'keys: 100th page (cursor)': null, // filled in below from a real cursor
    'keys: find by name': '/v1/keys?name=team-42-key&limit=50',
    'usage: 30 days by day and model': `/v1/usage?${month}&bucket_width=1d&group_by=model`,
    'usage: 7 days by hour and model': `/v1/usage?${week}&bucket_width=1h&group_by=model`,
    'usage: 30 days by day and key': `/v1/usage?${month}&bucket_width=1d&group_by=key_id`,
    'usage: 30 days by day and team': `/v1/usage?${month}&bucket_width=1d&group_by=team_id`,
    'usage: one key, 30 days by day': `/v1/usage?${month}&bucket_width=1d&key_id=${keyId}`,
    'request log: first page (50)': '/v1/usage/records?limit=50',
    'request log: one key': `/v1/usage/records?limit=50&key_id=${keyId}`,
    'request log: one model, last day': `/v1/usage/records?limit=50&model=gpt-4.1&start_time=${now - 86_400}&end_time=${now}`,
    'request log: by request id': `/v1/usage/records?request_id=${requestId}`,
  };
}

async function timeGet(origin, path, headers) {
  const started = performance.now();
  const res = await fetch(`${origin}${path}`, { headers });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${Buffer.from(body).toString()}`);
  return { ms, bytes: body.byteLength };
}

/** The cursor of the keys list's 100th page of 50, found by walking it. */
async function deepKeysCursor(origin, headers) {
  let after = null;
  for (let page = 1; page < 100; page++) {
    const res = await fetch(`${origin}/v1/keys?limit=50${after ? `&after=${after}` : ''}`, {
      headers,
    });
    const body = await res.json();
    after = body.next_cursor;
  }
  return after;
}

/**
 * @param {{ quick: boolean, cpus: object, scratch: string, log: Function }} ctx
 * @returns per call: p50/max ms, bytes, and the p50 as a multiple of the floor's.
 */
export async function run(ctx) {
  const repeats = ctx.quick ? 5 : 25;
  const scale = ctx.quick ? { keys: FULL.keys / 10, usageRows: FULL.usageRows / 10 } : FULL;
  const target = await startTarget('modelgate-pg', 'http://127.0.0.1:9', {
    cpu: ctx.cpus.server,
    scratch: ctx.scratch,
  });
  try {
    const now = Math.floor(Date.now() / 1000);
    const seedStarted = performance.now();
    const { lo } = await seed(target.databaseUrl, now, scale);
    const seedS = (performance.now() - seedStarted) / 1000;
    ctx.log(
      `console: seeded ${scale.keys} keys and ${scale.usageRows} usage rows in ${seedS.toFixed(1)} s`,
    );
    const headers = { authorization: `Bearer ${target.adminKey}` };
    const calls = consoleCalls(
      now,
      lo + Math.floor(scale.keys / 3),
      `req_bench_${scale.usageRows / 2}`,
    );
    calls['keys: 100th page (cursor)'] =
      `/v1/keys?limit=50&after=${await deepKeysCursor(target.origin, headers)}`;
    const all = { 'floor: credit_grants': '/v1/dashboard/billing/credit_grants', ...calls };
    const samples = Object.fromEntries(Object.keys(all).map((name) => [name, []]));
    const bytes = {};
    // Interleaved rounds, so a slow moment of the machine falls on every call alike.
    for (let round = 0; round < repeats + 2; round++) {
      for (const [name, path] of Object.entries(all)) {
        const { ms, bytes: size } = await timeGet(target.origin, path, headers);
        if (round >= 2) samples[name].push(ms);
        bytes[name] = size;
      }
    }
    const floorP50 = summarize(samples['floor: credit_grants']).p50;
    const calls_ = {};
    for (const [name, values] of Object.entries(samples)) {
      const s = summarize(values);
      calls_[name] = { p50: s.p50, max: s.max, bytes: bytes[name], xFloor: s.p50 / floorP50 };
      ctx.log(
        `console ${name}: p50 ${s.p50.toFixed(1)} ms (${(s.p50 / floorP50).toFixed(1)}× floor), ${bytes[name]} B`,
      );
    }
    return { ...scale, days: DAYS, repeats, seedS, calls: calls_ };
  } finally {
    await stopTarget(target);
  }
}
