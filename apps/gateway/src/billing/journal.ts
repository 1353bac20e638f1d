/**
 * The settlement journal: a local append-only file per gateway instance that records each charge
 * before the response that caused it completes, and keeps it until the database has it. One
 * `write(2)` per entry (no fsync): the kernel holds the bytes once the call returns, so a killed
 * process (SIGKILL, OOM, a crash) loses nothing; a power cut of the machine can lose the last
 * moment's entries (LEDGER.md says what that costs).
 *
 * Layout: `<root>/<instance id>/owner.json` and segments `000001.jsonl`, … of one JSON line per
 * entry. A segment is sealed after `segmentEntries` entries and deleted once every entry in it is
 * in the database, so the journal holds only what is still on its way.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { SettleItem } from './statements.js';

/** One journaled settlement; `done()` once the database has it. */
export interface JournalEntry {
  readonly id: string;
  done(): void;
}

export interface Journal {
  readonly owner: string;
  /** Writes the settlement to the journal (returns once the kernel has it). */
  append(item: SettleItem): JournalEntry;
  close(): void;
}

/** Who wrote a journal: enough to tell whether that process is still alive. */
export interface JournalOwner {
  id: string;
  host: string;
  pid: number;
  startedAtMs: number;
}

interface Segment {
  fd: number;
  path: string;
  entries: number;
  pending: number;
  sealed: boolean;
}

interface JournalLine {
  id: string;
  k: number;
  r: number;
  a: number;
  m: SettleItem['meta'];
  /** The budgeted reservation's instant, so a replay gives the budgets back exactly once too. */
  b?: number;
}

const segmentName = (n: number) => `${String(n).padStart(6, '0')}.jsonl`;

/**
 * Opens this instance's journal under `root`.
 *
 * @example
 * const journal = openJournal('/var/lib/modelgate/ledger', 'gw-1a2b');
 * const entry = journal.append({ keyId: 1, reserved: 2_000, actual: 1_234, meta: { kind: 'text' } });
 * // …write it to the database, then:
 * entry.done();
 */
export function openJournal(root: string, owner: string, segmentEntries = 4096): Journal {
  const dir = join(root, owner);
  mkdirSync(dir, { recursive: true });
  const meta: JournalOwner = {
    id: owner,
    host: hostname(),
    pid: process.pid,
    startedAtMs: Date.now(),
  };
  writeFileSync(join(dir, 'owner.json'), JSON.stringify(meta));

  let seq = 0;
  let segments = 0;
  const open = (): Segment => {
    const path = join(dir, segmentName(++segments));
    return { fd: openSync(path, 'a'), path, entries: 0, pending: 0, sealed: false };
  };
  const retire = (segment: Segment) => {
    if (!segment.sealed || segment.pending > 0) return;
    closeSync(segment.fd);
    unlinkSync(segment.path);
  };
  let current = open();

  return {
    owner,
    append(item) {
      if (current.entries >= segmentEntries) {
        current.sealed = true;
        const full = current;
        current = open();
        retire(full);
      }
      const id = `${owner}:${++seq}`;
      const line: JournalLine = {
        id,
        k: item.keyId,
        r: item.reserved,
        a: item.actual,
        m: item.meta,
        ...(item.budgetAt != null ? { b: item.budgetAt } : {}),
      };
      writeSync(current.fd, `${JSON.stringify(line)}\n`);
      const segment = current;
      segment.entries++;
      segment.pending++;
      let settled = false;
      return {
        id,
        done() {
          if (settled) return;
          settled = true;
          segment.pending--;
          retire(segment);
        },
      };
    },
    close() {
      current.sealed = true;
      retire(current);
      if (current.pending === 0) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A journal another (perhaps dead) instance left under `root`. */
export interface FoundJournal {
  owner: JournalOwner;
  /** Its entries, oldest first (a torn last line is skipped). */
  entries: SettleItem[];
  /** Deletes it (after its entries are in the database). */
  remove(): void;
}

/** The journals under `root` other than `self`'s. */
export function findJournals(root: string, self: string): FoundJournal[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const found: FoundJournal[] = [];
  for (const name of names) {
    if (name === self) continue;
    const dir = join(root, name);
    let owner: JournalOwner;
    try {
      owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as JournalOwner;
    } catch {
      continue; // not a journal (or one being created this instant)
    }
    found.push({
      owner,
      entries: readEntries(dir),
      remove: () => rmSync(dir, { recursive: true, force: true }),
    });
  }
  return found;
}

function readEntries(dir: string): SettleItem[] {
  const entries: SettleItem[] = [];
  const segments = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
  for (const file of segments) {
    for (const text of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!text) continue;
      let line: JournalLine;
      try {
        line = JSON.parse(text) as JournalLine;
      } catch {
        continue;
      }
      entries.push({
        keyId: line.k,
        reserved: line.r,
        actual: line.a,
        meta: line.m,
        entryId: line.id,
        budgetAt: line.b ?? null,
      });
    }
  }
  return entries;
}
