/** The chaos run's figures, printed as a table for people and as one JSON line for tools. */
import type { RunLoad } from './run-load.js';
import type { ChaosSize } from './sizes.js';

export interface ReportInput {
  size: ChaosSize;
  load: RunLoad;
  disruptions: string[];
  faults: Record<string, number>;
  tasks: {
    total: number;
    byStatus: Record<string, number>;
    open: number;
    stuckPastDeadline: string[];
  };
  callbacks: {
    tasksWithCallback: number;
    deliveredOnce: number;
    missing: string[];
    deliveredTwice: string[];
    attempts: number;
    failedOnPurpose: number;
    duplicatesDeduped: number;
  };
  ledger: {
    difference: number;
    orphaned: number;
    budgetDifference: number;
    exitCodes: (number | null)[];
  };
  budgets: { pastAmount: number; spent: number[] };
  charges: { servedChats: number; unchargedChats: string[]; unchargedCompletedVideos: string[] };
  quota: { keysPastQuota: number; quotaKeysUsed: number[]; quotaUnits: number };
  rpm: ReturnType<RunLoad['rpmFigures']>;
  shutdownExitCodes: (number | null)[];
  gatewayErrorLogs: Record<string, number>;
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function table(title: string, given: [string, string | number][]): string {
  const rows: [string, string | number][] = given.length > 0 ? given : [['none', '']];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`\n${title}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}

export function printReport(input: ReportInput) {
  const { load } = input;
  const exchanges = load.exchanges;
  const requests = {
    total: exchanges.length,
    seconds: Math.round((Math.max(...exchanges.map((e) => e.endedAt)) - load.startedAt) / 1000),
    byStatus: countBy(exchanges, (e) => String(e.status)),
    byOutcome: countBy(exchanges, (e) => e.outcome),
    byOperation: countBy(exchanges, (e) => e.op),
    errors: countBy(
      exchanges.filter((e) => e.status >= 400),
      (e) => `${e.status} ${e.error ?? ''}`,
    ),
    killedInFlight: exchanges.filter((e) => e.outcome === 'killed-in-flight').length,
    unexplained: exchanges
      .filter((e) => e.outcome === 'unexplained')
      .map((e) => `${e.op} on instance ${e.instance}: ${e.detail}`),
  };
  const report = {
    size: input.size.name,
    requests,
    disruptions: input.disruptions,
    faultsInjected: input.faults,
    tasks: input.tasks,
    callbacks: input.callbacks,
    ledger: input.ledger,
    charges: input.charges,
    quota: input.quota,
    budgets: input.budgets,
    rpm: input.rpm,
    shutdownExitCodes: input.shutdownExitCodes,
    gatewayErrorLogs: input.gatewayErrorLogs,
  };
  const lines = [
    `\n=== chaos run (${input.size.name}): ${requests.total} requests in ${requests.seconds} s ===`,
    table('requests by status', Object.entries(requests.byStatus)),
    table('requests by outcome', Object.entries(requests.byOutcome)),
    table('requests by operation', Object.entries(requests.byOperation)),
    table('errors by status and code', Object.entries(requests.errors)),
    table(
      'disruptions',
      input.disruptions.map((d, i) => [String(i + 1), d]),
    ),
    table('upstream faults armed', Object.entries(input.faults)),
    table('video tasks', [
      ['accepted', input.tasks.total],
      ...Object.entries(input.tasks.byStatus).map(([s, n]): [string, number] => [s, n]),
      ['not final at the end', input.tasks.open],
      ['stuck past deadline', input.tasks.stuckPastDeadline.length],
    ]),
    table('callbacks', [
      ['tasks with callback_url', input.callbacks.tasksWithCallback],
      ['final callback processed once', input.callbacks.deliveredOnce],
      ['missing', input.callbacks.missing.length],
      ['processed twice (distinct ids)', input.callbacks.deliveredTwice.length],
      ['attempts received', input.callbacks.attempts],
      ['failed on purpose (500)', input.callbacks.failedOnPurpose],
      ['duplicates deduped', input.callbacks.duplicatesDeduped],
    ]),
    table('ledger check --sweep', [
      ['difference', input.ledger.difference],
      ['orphaned', input.ledger.orphaned],
      ['budget difference', input.ledger.budgetDifference],
      ['exit codes', input.ledger.exitCodes.join(', ')],
    ]),
    table('charges', [
      ['served chats', input.charges.servedChats],
      ['served chats without a usage row', input.charges.unchargedChats.length],
      ['completed videos without a usage row', input.charges.unchargedCompletedVideos.length],
    ]),
    table('budgets', [
      ['budgets past amount + in flight', input.budgets.pastAmount],
      ['spent (keys, then the team)', input.budgets.spent.join(', ')],
    ]),
    table('quota', [
      ['keys past quota', input.quota.keysPastQuota],
      [`small keys used (quota ${input.quota.quotaUnits})`, input.quota.quotaKeysUsed.join(', ')],
    ]),
    table('rpm key (served ≤ bound)', [
      [
        `Redis up, ${input.rpm.steady.seconds.toFixed(0)} s`,
        `${input.rpm.steady.accepted} ≤ ${input.rpm.steady.bound}`,
      ],
      [
        `whole run incl. outage, ${input.rpm.whole.seconds.toFixed(0)} s`,
        `${input.rpm.whole.accepted} ≤ ${input.rpm.whole.bound} (429: ${input.rpm.whole.refused})`,
      ],
    ]),
    table('gateway error log lines', Object.entries(input.gatewayErrorLogs)),
    `\nCHAOS_JSON ${JSON.stringify(report)}\n`,
  ];
  console.log(lines.join('\n'));
  return report;
}
