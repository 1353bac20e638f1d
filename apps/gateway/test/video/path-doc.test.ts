// docs/video-path.md names the files a video submission crosses: each one it names must exist, so
// a move that forgets the page fails here.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const page = readFileSync(new URL('../../../../docs/video-path.md', import.meta.url), 'utf8');
const src = new URL('../../src/', import.meta.url);

describe('docs/video-path.md', () => {
  const named = [...page.matchAll(/`([a-z-]+(?:\/[a-z<>-]+)*\.ts)`/g)].map((m) => m[1]!);

  it('names at least the stages of the path', () => {
    expect(named.length).toBeGreaterThan(30);
  });

  it('names only files that exist', () => {
    const missing = named
      .map((path) => path.replace('<provider>', 'kling'))
      .filter((path) => path.includes('/') || path === 'listen.ts')
      .filter((path) => !existsSync(new URL(path, src)));
    expect(missing).toEqual([]);
  });
});
