// A fresh PostgreSQL database per use (CREATE, then DROP … WITH (FORCE)), so runs never collide.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(sql) {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 3_000,
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** True when the server at POSTGRES_ADMIN_URL answers. */
export async function postgresAvailable() {
  try {
    await admin('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** Creates `mg_bench_<random>`; returns its URL and a `drop()` that removes it. */
export async function createFreshDatabase() {
  const name = `mg_bench_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {}),
  };
}
