/**
 * The video models: what each accepts, its price and its provider's adapter. The shape of an entry
 * is in model-spec.ts, the table itself in models.ts, and GET /v1/models's view of it in
 * model-list.ts; the rest of the gateway imports them from here.
 */
export { videoCapabilities, videoModelList } from './model-list.js';
export type {
  ParamProblem,
  ResolvedVideoParams,
  VideoModelSpec,
  VideoProviderName,
} from './model-spec.js';
export { VIDEO_MODEL_IDS, VIDEO_MODELS } from './models.js';
