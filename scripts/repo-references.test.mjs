// The repository stands on its own (scripts/repo-references.mjs): run by `pnpm test`.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findingsIn,
  formatFinding,
  headingSlug,
  repositoryView,
  scanRepository,
} from './repo-references.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A small repository in memory: path → text. */
function view(files) {
  return repositoryView(Object.keys(files), (path) => files[path]);
}

const problemsOf = (file, text, files) =>
  findingsIn(file, text, view(files)).map((f) => `${f.line}: ${f.problem}`);

describe('the repository', () => {
  const { failing } = scanRepository(root);

  it('names and links only files that are in it, with anchors that exist', () => {
    expect(failing.map(formatFinding), failing.map(formatFinding).join('\n')).toEqual([]);
  });

  it('finds a bare name next to the file or in a folder above it, nowhere else', () => {
    const files = { 'app/LEDGER.md': '', 'app/src/b.ts': '', 'other/c.ts': '' };
    expect(problemsOf('app/src/b.ts', '// see LEDGER.md', files)).toEqual([]);
    expect(problemsOf('other/c.ts', '// see LEDGER.md', files)).toEqual([
      '1: names LEDGER.md, which is not in the repository',
    ]);
  });

  it('checks the anchor against the headings of the target', () => {
    const files = { 'src/a.ts': '', 'docs/p.md': '# Providers\n\n## §5 Kling\n' };
    expect(problemsOf('src/a.ts', '// docs/p.md#5-kling', files)).toEqual([]);
    expect(problemsOf('src/a.ts', '// docs/p.md#kling', files)).toEqual([
      '1: docs/p.md has no heading with the anchor #kling',
    ]);
  });

  it('flags a relative Markdown link to a missing path, not an external one', () => {
    const files = { 'README.md': '', 'docs/design.md': '## Errors\n' };
    const text = [
      'See [the design](docs/design.md#errors) and [the site](https://example.org/x.md).',
      'Broken: [gone](docs/gone.md) and [bad anchor](docs/design.md#nope).',
      '```',
      'a[0](b) inside a code block is code, not a link',
      '```',
    ].join('\n');
    expect(problemsOf('README.md', text, files)).toEqual([
      '2: links to docs/gone.md, which is not in the repository',
      '2: docs/design.md has no heading with the anchor #nope',
    ]);
  });

  it('ignores addresses that merely end in .md', () => {
    const text = '// Source: https://platform.example.com/docs/errorcode.md, example.com/a/b.md';
    expect(problemsOf('src/a.ts', text, { 'src/a.ts': '' })).toEqual([]);
  });
});

describe('headingSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('What a crash costs: video tasks')).toBe('what-a-crash-costs-video-tasks');
    expect(headingSlug('Shared file storage (S3-compatible)')).toBe(
      'shared-file-storage-s3-compatible',
    );
    expect(headingSlug('§6 BytePlus ModelArk (Seedance)')).toBe('6-byteplus-modelark-seedance');
  });
});
