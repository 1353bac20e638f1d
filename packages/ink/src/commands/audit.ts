// `modelgate audit`: the gateway's audit log, newest first (admin key).
import type { AuditEntry, ModelgateClient } from '@modelgate/core';
import type { AuditCommand } from '../audit-args.js';
import { type CommandIO, printResult } from './io.js';

export interface AuditCommandInput {
  /** A client that sends the admin key. */
  adminClient: ModelgateClient;
  /** Print the gateway's JSON instead of text. */
  json: boolean;
}

/**
 * Prints one page of the audit log, an entry a line: when, what, on what, by which key, and each
 * changed value as `before → after`.
 *
 * @example
 * ```ts
 * await runAuditCommand({ name: 'audit', query: { key_id: 7 } }, { adminClient, json: false }, process);
 * // 2026-11-28 06:00:00Z  key.update  key 7  by key 1  quota 5 → 10, rpm null → 60  (req_3f1c)
 * ```
 */
export function runAuditCommand(
  command: AuditCommand,
  input: AuditCommandInput,
  io: CommandIO,
): Promise<number> {
  return printResult(io, async () => {
    const page = await input.adminClient.audit.list(command.query, { signal: io.signal });
    if (input.json) return JSON.stringify(page, null, 2);
    if (page.data.length === 0) return 'No audit entries.';
    return page.data.map(formatAuditEntry).join('\n');
  });
}

/** One entry as a line of text. */
export function formatAuditEntry(entry: AuditEntry): string {
  const when = `${new Date(entry.created_at * 1000).toISOString().slice(0, 19).replace('T', ' ')}Z`;
  const target =
    entry.target.type === 'key'
      ? `key ${entry.target.id}`
      : `key ${entry.target.id}'s callback secret`;
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const changes = Object.keys(after).map((name) =>
    entry.before === null
      ? `${name} ${show(after[name])}`
      : `${name} ${show(before[name])} → ${show(after[name])}`,
  );
  const request = entry.request_id ? `  (${entry.request_id})` : '';
  return `${when}  ${entry.action}  ${target}  by key ${entry.actor_key_id}  ${changes.join(', ')}${request}`;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}
