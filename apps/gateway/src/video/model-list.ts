/** The video models as GET /v1/models shows them. */
import type { VideoModelSpec } from './model-spec.js';
import { VIDEO_MODELS } from './models.js';

/** The capabilities object shown at GET /v1/models (credits per second at the API edge). */
export function videoCapabilities(spec: VideoModelSpec) {
  return {
    durations: spec.durations,
    default_duration: spec.defaultDuration,
    aspect_ratios: spec.aspectRatios,
    resolutions: spec.resolutions,
    default_resolution: spec.defaultResolution,
    image_input: spec.imageInput,
    last_frame: spec.lastFrame,
    generate_audio: spec.generateAudio,
    seed: spec.seed,
    negative_prompt: spec.negativePrompt,
    max_prompt_length: spec.maxPromptLength,
    price_per_second: Object.fromEntries(
      Object.entries(spec.unitsPerSecond).map(([res, units]) => [res, units / 1_000_000]),
    ),
  };
}

/**
 * The video models in GET /v1/models's shape, for TEXT's models route to merge in.
 *
 * @example
 * const data = [...textModels, ...videoModelList(created)];
 */
export function videoModelList(created = 1_767_225_600) {
  return Object.values(VIDEO_MODELS).map((spec) => ({
    id: spec.id,
    object: 'model' as const,
    created,
    owned_by: spec.ownedBy,
    type: 'video' as const,
    video: videoCapabilities(spec),
  }));
}
