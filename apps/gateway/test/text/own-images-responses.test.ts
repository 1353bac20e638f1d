/**
 * A responses body passed through natively keeps its own image parts: an `input_image` pointing at
 * the gateway's CDN (which an upstream on the internet cannot reach) gets the file's bytes as a
 * `data:` URL; any other URL, and the pivot used for sizing, are left alone.
 */
import type { CreateResponseRequest } from '@modelgate/core';
import { describe, expect, it } from 'vitest';
import { inlineOwnImages, type OwnImageLoader } from '../../src/text/own-images.js';

const OWN = 'http://127.0.0.1:9/files/file-abc.png';
const load: OwnImageLoader = async (url, param) =>
  url === OWN ? { mediaType: 'image/png', data: `bytes-for-${param}` } : null;

describe('own images in a responses body', () => {
  it('inlines the CDN image parts, naming each by its place, and leaves the others', async () => {
    const body: CreateResponseRequest = {
      model: 'gpt-4o-mini',
      input: [
        { type: 'message', role: 'user', content: 'Hi' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'https://example.com/cat.png' },
            { type: 'input_image', image_url: OWN, detail: 'low' },
          ],
        },
      ],
    };
    await inlineOwnImages(
      { format: 'responses', body, pivot: { model: 'gpt-4o-mini', messages: [] } },
      load,
    );
    const parts = Array.isArray(body.input) ? body.input[1]?.content : undefined;
    expect(parts).toEqual([
      { type: 'input_text', text: 'Look' },
      { type: 'input_image', image_url: 'https://example.com/cat.png' },
      {
        type: 'input_image',
        image_url: 'data:image/png;base64,bytes-for-input.1.content.2.image_url',
        detail: 'low',
      },
    ]);
  });

  it('a string input has nothing to inline', async () => {
    const body: CreateResponseRequest = { model: 'gpt-4o-mini', input: OWN };
    await inlineOwnImages({ format: 'responses', body, pivot: { model: 'm', messages: [] } }, load);
    expect(body.input).toBe(OWN);
  });
});
