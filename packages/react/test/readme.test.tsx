// The README's app, run in happy-dom against a real gateway: the snippet is transpiled as it
// stands (placeholders replaced by the test gateway's URL and key) and imported into the page.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, expect, inject, it } from 'vitest';
import {
  readSnippets,
  unknownPnpmCommands,
  withSnippetModule,
} from '../../../scripts/readme-snippets.js';

const gateway = inject('gateway');
// Not `new URL(…, import.meta.url)`: in happy-dom `URL` is the DOM's, which node:url refuses.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const [app] = readSnippets(join(packageDir, 'README.md'), ['tsx']);

afterAll(() => {
  document.body.innerHTML = '';
});

it('the README app streams a chat answer and finishes a video', async () => {
  expect(app).toBeDefined();
  document.body.innerHTML = '<div id="root"></div>';
  const replacements = { 'http://localhost:8080': gateway.url, 'sk-…': gateway.apiKey };
  await withSnippetModule(
    packageDir,
    app!,
    replacements,
    (path) => import(/* @vite-ignore */ path),
  );

  fireEvent.change(await screen.findByPlaceholderText('Say something'), {
    target: { value: 'Tell me about kites' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  await screen.findByRole('button', { name: 'Stop' });
  await screen.findByRole('button', { name: 'Send' }, { timeout: 10_000 });
  const answer = document.querySelector('[data-role=assistant]')?.textContent ?? '';
  expect(answer.replace('assistant: ', '').length).toBeGreaterThan(10);
  expect(screen.getByText(/\d+ tokens/)).toBeTruthy();
  expect(screen.queryByRole('alert')).toBeNull();

  fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
  await waitFor(() => expect(document.querySelector('video')).not.toBeNull(), { timeout: 15_000 });
  expect(document.querySelector('video')?.getAttribute('src')).toMatch(
    new RegExp(`^${gateway.cdnUrl}/videos/`),
  );
});

it('the README names only pnpm commands the repository has', () => {
  const shell = readSnippets(join(packageDir, 'README.md'), ['sh']);
  expect(shell.length).toBeGreaterThan(0);
  for (const snippet of shell) {
    expect(unknownPnpmCommands(snippet, join(packageDir, '..', '..'))).toEqual([]);
  }
});
