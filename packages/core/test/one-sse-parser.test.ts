// The generated fetch client brings an SSE reader of its own (`client.sse.*`; the generator has no
// option to leave it out). It stays unused as long as no SDK function calls it (the generator
// routes an operation there when its chosen response type is `text/event-stream`) and nothing
// hand-written imports it, so `src/sse.ts` remains the one SSE parser.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const src = new URL('../src/', import.meta.url);

describe('one SSE parser', () => {
  it('no generated SDK function goes through the generated SSE client', () => {
    const sdk = readFileSync(new URL('generated/sdk.gen.ts', src), 'utf8');
    expect(sdk).toMatch(/\.post</);
    expect(sdk).not.toMatch(/\.sse\b/);
  });

  it('nothing hand-written imports the generated SSE client', () => {
    const handWritten = readdirSync(src).filter((name) => name.endsWith('.ts'));
    expect(handWritten).toContain('sse.ts');
    for (const name of handWritten) {
      expect(readFileSync(new URL(name, src), 'utf8'), name).not.toMatch(
        /serverSentEvents|\.sse\./,
      );
    }
  });
});
