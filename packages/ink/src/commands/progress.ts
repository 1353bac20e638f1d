// A one-line progress bar on stderr, redrawn in place; nothing at all when stderr is not a terminal,
// so pipes and logs get only the result.
import { progressBar } from '../format.js';
import type { CommandIO } from './io.js';

export interface ProgressLine {
  /** Redraws the line: `label [████░░░░] 42% detail`. */
  update(percent: number, detail?: string): void;
  /** Ends the line (the next output starts on a fresh one). */
  done(): void;
}

/**
 * @example
 * ```ts
 * const line = progressLine(io, 'upload cat.png');
 * line.update(50);
 * line.done();
 * ```
 */
export function progressLine(io: CommandIO, label: string): ProgressLine {
  const live = io.stderr.isTTY === true;
  let drawn = false;
  return {
    update(percent, detail = '') {
      if (!live) return;
      const text = `${label} ${progressBar(percent)} ${Math.round(percent)}% ${detail}`.trimEnd();
      io.stderr.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\n');
      drawn = false;
    },
  };
}
