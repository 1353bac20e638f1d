// wire: docs/providers.md#13-gemini-images — Gemini's image models on `generateContent`
// (`gemini-2.5-flash-image`): the prompt and input images as parts of the user turn (inline
// base64, in either JSON spelling), `responseModalities` with `IMAGE`, the size as
// `imageConfig.aspectRatio`. Answers one inline PNG part (after a text part) and the token
// usage; a prompt naming `forbidden` ends with `IMAGE_SAFETY` and no image, as a safety filter
// would. Served at {sim}/gemini/v1beta.
import type { Ctx } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import { countTokens } from '../text/tokens.js';
import { checkAuth } from '../video/gemini.js';
import { pictureFor, refusedPrompt } from './picture-for.js';
import { imageSize } from './size.js';
import { nearestRatio, RATIO_SIZES } from './sizes.js';

/** Output tokens of one image (Google's published figure for gemini-2.5-flash-image). */
const IMAGE_OUTPUT_TOKENS = 1290;
const INLINE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

interface Turn {
  prompt: string;
  images: Buffer[];
}

function readTurn(body: Record<string, unknown>): Turn {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) {
    throw badRequest('* GenerateContentRequest.contents: contents is not specified');
  }
  const last = contents[contents.length - 1];
  const parts = isRecord(last) && Array.isArray(last.parts) ? last.parts : [];
  const texts: string[] = [];
  const images: Buffer[] = [];
  for (const [i, part] of parts.entries()) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    const inline = part.inlineData ?? part.inline_data;
    if (!isRecord(inline)) continue;
    const mime = inline.mimeType ?? inline.mime_type;
    if (typeof mime !== 'string' || !INLINE_TYPES.includes(mime)) {
      throw badRequest(
        `* GenerateContentRequest.contents.parts[${i}].inline_data.mime_type: unsupported MIME type: ${String(mime)}`,
      );
    }
    if (typeof inline.data !== 'string') {
      throw badRequest(
        `* GenerateContentRequest.contents.parts[${i}].inline_data.data: required field is not set`,
      );
    }
    images.push(Buffer.from(inline.data, 'base64'));
  }
  if (texts.length === 0 && images.length === 0) {
    throw badRequest('* GenerateContentRequest.contents.parts: contents.parts must not be empty.');
  }
  return { prompt: texts.join('\n'), images };
}

/** The requested ratio, or the first input image's nearest, or square. */
function ratioOf(body: Record<string, unknown>, images: Buffer[]): string {
  const config = isRecord(body.generationConfig)
    ? body.generationConfig
    : isRecord(body.generation_config)
      ? body.generation_config
      : {};
  const imageConfig = isRecord(config.imageConfig)
    ? config.imageConfig
    : isRecord(config.image_config)
      ? config.image_config
      : {};
  const asked = imageConfig.aspectRatio ?? imageConfig.aspect_ratio;
  if (asked !== undefined) {
    if (typeof asked !== 'string' || !(asked in RATIO_SIZES)) {
      throw badRequest(
        `* GenerateContentRequest.generation_config.image_config.aspect_ratio: unsupported aspect ratio ${String(asked)}`,
      );
    }
    return asked;
  }
  const size = images[0] ? imageSize(images[0]) : null;
  return size ? nearestRatio(size.width, size.height) : '1:1';
}

function wantsImage(body: Record<string, unknown>): boolean {
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  const modalities = config.responseModalities ?? config.response_modalities;
  if (!Array.isArray(modalities)) return true;
  return modalities.some((m) => typeof m === 'string' && m.toUpperCase() === 'IMAGE');
}

async function generateContent(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const model = ctx.params[0]!;
  if (!model.includes('image')) {
    throw new HttpError({
      status: 404,
      message: `models/${model} is not found for API version v1beta, or is not supported for generateContent.`,
    });
  }
  if (!isRecord(ctx.body)) throw badRequest('Invalid JSON payload received.');
  const turn = readTurn(ctx.body);
  const ratio = ratioOf(ctx.body, turn.images);
  const [width, height] = RATIO_SIZES[ratio]!;
  await applyLatency(ctx);
  const promptTokenCount = countTokens(turn.prompt) + 258 * turn.images.length;
  const refused = refusedPrompt(turn.prompt);
  const parts: Record<string, unknown>[] = [{ text: refused ? '' : 'Here is the image.' }];
  if (!refused && wantsImage(ctx.body)) {
    const png = pictureFor({ prompt: turn.prompt, inputs: turn.images, width, height, index: 0 });
    parts.push({ inlineData: { mimeType: 'image/png', data: png.toString('base64') } });
  }
  const imageTokens = parts.length > 1 ? IMAGE_OUTPUT_TOKENS : 0;
  sendJson(ctx, 200, {
    candidates: [
      {
        content: { role: 'model', parts: refused ? [] : parts },
        finishReason: refused ? 'IMAGE_SAFETY' : 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount,
      candidatesTokenCount: imageTokens,
      totalTokenCount: promptTokenCount + imageTokens,
    },
    modelVersion: model,
    responseId: ctx.requestId,
  });
}

export const geminiImageRoutes: RouteDef[] = [
  { method: 'POST', path: '/models/{model}:generateContent', handler: generateContent },
];
