/**
 * Which Chromium the browser tests drive, and whether this run drives one at all. A machine
 * without Chromium skips them loudly. The test command's second runtime pass skips them with one
 * line (`MODELGATE_TEST_BROWSERS=skip`, set by scripts/test-all.mjs): what they check beyond the
 * gateway's HTTP, which every other test covers on both runtimes, is what the page does in the
 * browser, and the Node that serves it does not change that.
 *
 * @example
 * const skipped = browserTestSkipped('/docs browser test');
 * describe.skipIf(skipped)('the /docs reference in Chromium', () => { … });
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when `name` must skip here; says why on stderr. */
export function browserTestSkipped(name: string): boolean {
  if (process.env.MODELGATE_TEST_BROWSERS === 'skip') {
    console.warn(`${name} skipped: MODELGATE_TEST_BROWSERS=skip (browser tests run in one pass)`);
    return true;
  }
  if (existsSync(CHROMIUM)) return false;
  console.warn(
    [
      '',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      `!! ${name} SKIPPED: no Chromium at ${CHROMIUM}.`,
      '!! Install it with:  apt-get update && apt-get install -y chromium',
      '!! (or point CHROMIUM_PATH at a Chromium/Chrome binary).',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '',
    ].join('\n'),
  );
  return true;
}
