/**
 * The README's image edit and embedding examples, executed: each `sh` block of "Edits and
 * variations" and "Embeddings" runs in bash (`set -euo pipefail`) and each `ts` block as a Node
 * module importing the real `openai` client, against a demo-mode test gateway, in a directory
 * holding the pictures they name. What they print and save is checked, so an example that stops
 * working fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRaster, rasterToPng } from '@modelgate/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readSnippets,
  type Snippet,
  substitute,
  withSnippetModule,
} from '../../../../scripts/readme-snippets.js';
import { expectEditedSquare, fill, squarePng } from '../images/pictures.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const README = join(packageDir, 'README.md');

/** The snippets between a heading and the next heading of the same or a higher level. */
function section(heading: string): Snippet[] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const level = heading.split(' ')[0]!.length;
  const start = lines.indexOf(heading) + 1;
  let end = lines.length;
  let fenced = false;
  for (let i = start; i < lines.length; i++) {
    if (lines[i]!.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#+ /.test(lines[i]!) && lines[i]!.split(' ')[0]!.length <= level) {
      end = i + 1;
      break;
    }
  }
  return readSnippets(README).filter((s) => s.line > start && s.line < end);
}

/** The JSON values curl printed back to back (its answers end without a newline). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let from = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') {
      if (depth === 0) from = i;
      depth++;
    } else if (c === '}' && --depth === 0) values.push(JSON.parse(text.slice(from, i + 1)));
  }
  return values;
}

describe('the README’s image edit and embedding examples', () => {
  let gw: TestGateway;
  let key: string;
  let work: string;
  let replacements: Record<string, string>;

  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey({ quota: 100_000_000 }));
    replacements = { 'http://localhost:8080': gw.url, 'sk-…': key };
    work = mkdtempSync(join(tmpdir(), 'mg-readme-media-'));
    writeFileSync(join(work, 'room.png'), squarePng(256));
    writeFileSync(join(work, 'otter.png'), squarePng(256));
    const mask = createRaster(256, 256, [0, 0, 0, 255]);
    fill(mask, { x: 128, y: 0, w: 128, h: 256 }, [0, 0, 0, 0]);
    writeFileSync(join(work, 'mask.png'), rasterToPng(mask, false));
  });
  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const shell = (snippet: Snippet) =>
    run('bash', ['-c', `set -euo pipefail\n${substitute(snippet.code, replacements)}`], {
      cwd: work,
      // The key the README's "Account operations" made earlier in the same shell.
      env: { ...process.env, KEY: key },
      timeout: 60_000,
    });
  const node = (snippet: Snippet) =>
    withSnippetModule(packageDir, snippet, replacements, async (path) => {
      const { stdout } = await run(process.execPath, [path], {
        cwd: work,
        env: { ...process.env, MODELGATE_API_KEY: key },
        timeout: 60_000,
      });
      return stdout;
    });

  it('has a curl block and an openai block for edits and variations, and for embeddings', () => {
    for (const heading of ['### Edits and variations', '## Embeddings']) {
      expect(section(heading).map((s) => s.lang)).toEqual(['sh', 'ts']);
    }
  });

  it('the curl lines edit (multipart and JSON), edit with a mask, and make variations', async () => {
    rmSync(join(work, 'room-green.png'), { force: true });
    const [curl] = section('### Edits and variations');
    const { stdout, stderr } = await shell(curl!);
    expect(stderr).toBe('');
    expectEditedSquare(readFileSync(join(work, 'room-green.png')));
    // biome-ignore lint/suspicious/noExplicitAny: the answers are checked field by field below.
    const answers = jsonValues(stdout) as any[];
    expect(answers).toHaveLength(3);
    const [json, dalle, variations] = answers;
    expect(json.data[0].url).toMatch(new RegExp(`^${gw.cdnUrl}/files/file-\\w+\\.png$`));
    expect(dalle.data).toHaveLength(1);
    expect(variations.data).toHaveLength(2);
  });

  it('the openai snippet edits the picture and prints the variations’ URLs', async () => {
    rmSync(join(work, 'room-green.png'), { force: true });
    const [, snippet] = section('### Edits and variations');
    const urls = (await node(snippet!)).trim().split('\n');
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(new RegExp(`^${gw.cdnUrl}/files/`));
    expectEditedSquare(readFileSync(join(work, 'room-green.png')));
  });

  it('the embeddings examples print two 256-value vectors and the tokens', async () => {
    const [curl, snippet] = section('## Embeddings');
    const answer = JSON.parse((await shell(curl!)).stdout);
    expect(answer.data.map((d: { embedding: number[] }) => d.embedding.length)).toEqual([256, 256]);
    expect((await node(snippet!)).trim()).toMatch(/^2 256 \d+$/);
  });
});
