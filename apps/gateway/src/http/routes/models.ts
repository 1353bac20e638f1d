/**
 * GET /v1/models: the text, image, video and embedding models this key may use. (The text generation routes
 * are served by the text edge, http/text-edge/.)
 */
import type { Hono } from 'hono';
import { modelListResponse } from '../../models/catalog.js';
import type { Services } from '../../services.js';
import { OVERHEAD_HEADER } from '../../text/service.js';
import type { AppEnv } from '../env.js';

export function registerModelRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/models', (c) => {
    const allowed = c.get('key')?.models ?? null;
    const permitted = (m: { id: string }) => !allowed || allowed.includes(m.id);
    const body = modelListResponse(
      allowed ? services.text.listModelsFor(allowed) : services.text.listModels(),
      services.images.listModels().filter(permitted),
      services.video.listModels().filter(permitted),
      services.embeddings.listModels().filter(permitted),
    );
    const startedAt = c.get('startedAt') ?? performance.now();
    c.header(OVERHEAD_HEADER, Math.max(0, performance.now() - startedAt).toFixed(2));
    return c.json(body);
  });
}
