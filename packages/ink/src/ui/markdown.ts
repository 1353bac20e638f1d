// Just enough Markdown for a terminal: fenced code blocks are drawn apart from the prose.

/** A piece of an answer: prose, or the inside of a ``` fence. */
export type MarkdownSegment =
  | { kind: 'text'; text: string }
  | { kind: 'code'; language: string; code: string };

const FENCE = /^\s*(```|~~~)\s*([\w+#.-]*)\s*$/;

/**
 * Splits an answer at its fenced code blocks. An unclosed fence runs to the end (an answer stopped
 * mid-block still shows its code as code).
 *
 * @example
 * ```ts
 * splitMarkdown('Run:\n```sh\nls\n```\nDone.');
 * // → [{ kind: 'text', text: 'Run:' }, { kind: 'code', language: 'sh', code: 'ls' }, { kind: 'text', text: 'Done.' }]
 * ```
 */
export function splitMarkdown(text: string): MarkdownSegment[] {
  const segments: MarkdownSegment[] = [];
  let prose: string[] = [];
  let code: { fence: string; language: string; lines: string[] } | null = null;
  const flushProse = () => {
    const joined = prose.join('\n').replace(/^\n+|\n+$/g, '');
    if (joined !== '') segments.push({ kind: 'text', text: joined });
    prose = [];
  };
  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line);
    if (code) {
      if (fence && fence[1] === code.fence && fence[2] === '') {
        segments.push({ kind: 'code', language: code.language, code: code.lines.join('\n') });
        code = null;
      } else {
        code.lines.push(line);
      }
    } else if (fence) {
      flushProse();
      code = { fence: fence[1] ?? '```', language: fence[2] ?? '', lines: [] };
    } else {
      prose.push(line);
    }
  }
  if (code) segments.push({ kind: 'code', language: code.language, code: code.lines.join('\n') });
  flushProse();
  return segments;
}

/**
 * Where the last finished paragraph of `text` ends (the index of its `\n\n`), ignoring blank lines
 * inside an open code fence, so a code block is never cut in two; -1 when there is none.
 *
 * @example
 * ```ts
 * lastParagraphBreak('a\n\nb'); // → 1
 * lastParagraphBreak('```\nx\n\ny'); // → -1 (inside the fence)
 * ```
 */
export function lastParagraphBreak(text: string): number {
  let inFence = false;
  let offset = 0;
  let last = -1;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (FENCE.test(line)) inFence = !inFence;
    // A blank line after this one, outside a fence, with more text after it: a paragraph break.
    const next = lines[i + 1];
    if (!inFence && next === '' && i + 2 < lines.length) last = offset + line.length;
    offset += line.length + 1;
  }
  return last;
}
