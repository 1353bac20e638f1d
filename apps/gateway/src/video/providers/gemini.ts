// wire: docs/providers.md#4-google-gemini-veo — Google Veo 3.1 on the Gemini API (predictLongRunning operation).
// Source: googleapis/js-genai src/converters/_models_converters.ts (generateVideos*ToMldev), src/operations.ts.
import { asRecord, fetchResult, providerApi, requireString, sameOrigin } from './http.js';
import {
  completed,
  failed,
  type PollResult,
  ProviderError,
  type VideoAdapter,
  type VideoProviderConfig,
} from './types.js';

/**
 * Adapter for `veo-3-1`. Images go inline only (`bytesBase64Encoded`); the operation name is the
 * upstream id; the result URI needs the API key too (sent only to the provider's own origin).
 *
 * @example
 * const veo = createGeminiAdapter({ baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey: 'AIza…' });
 */
export function createGeminiAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'gemini';
  const auth = { 'x-goog-api-key': config.apiKey ?? '' };
  const api = providerApi(provider, config, auth);
  const model = config.upstreamModel ?? 'veo-3.1-generate-preview';

  function inline(image: { kind: string; base64?: string; mimeType?: string }) {
    if (image.kind !== 'inline') {
      throw new ProviderError(
        provider,
        400,
        'image_not_inline',
        'gemini takes images inline only',
        false,
      );
    }
    return { bytesBase64Encoded: image.base64, mimeType: image.mimeType };
  }

  return {
    provider,
    async submit(req) {
      const instance: Record<string, unknown> = { prompt: req.prompt };
      if (req.image) instance.image = inline(req.image);
      if (req.lastFrame) instance.lastFrame = inline(req.lastFrame);
      const parameters: Record<string, unknown> = {
        aspectRatio: req.aspectRatio ?? '16:9',
        durationSeconds: req.duration,
        resolution: req.resolution,
        // The SDK refuses seed/generateAudio in Gemini-API mode; they are never sent.
        personGeneration: req.image ? 'allow_adult' : 'allow_all',
      };
      if (req.negativePrompt) parameters.negativePrompt = req.negativePrompt;
      const res = await api.post(`/models/${model}:predictLongRunning`, {
        instances: [instance],
        parameters,
      });
      return { upstreamId: requireString(provider, asRecord(res.body).name, 'operation name') };
    },
    async poll(upstreamId): Promise<PollResult> {
      // The operation name is a path below the base URL (`models/…/operations/…`).
      const res = await api.get(upstreamId);
      const op = asRecord(res.body);
      if (op.done !== true) return { state: 'in_progress' };
      if (op.error) {
        const error = asRecord(op.error);
        return failed(
          String(error.status ?? error.code ?? 'upstream_failed'),
          `gemini: ${String(error.message ?? 'operation failed')}`,
        );
      }
      const response = asRecord(asRecord(op.response).generateVideoResponse);
      const samples = Array.isArray(response.generatedSamples) ? response.generatedSamples : [];
      const uri = asRecord(asRecord(samples[0]).video).uri;
      if (typeof uri !== 'string' || !uri) {
        const reasons = Array.isArray(response.raiMediaFilteredReasons)
          ? response.raiMediaFilteredReasons.join('; ')
          : 'no video in the response';
        return failed('content_filtered', `gemini: ${reasons}`);
      }
      return completed(uri);
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl, sameOrigin(resultUrl, config.baseUrl) ? auth : {});
    },
  };
}
