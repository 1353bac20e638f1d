/**
 * Route groups mounted by createApp, in order. A feature's routes are ONE import and ONE entry:
 *   registerModelRoutes (./models.js), registerImageRoutes (images), registerFileRoutes (files),
 *   registerVideoRoutes (video), registerMessageRoutes (the messages token count), registerCallbackRoutes (callbacks), registerKeyRoutes +
 *   registerTeamRoutes + registerUsageRoutes (operators).
 * The text generation routes are not here: the text edge serves them (http/text-edge/).
 * A group is `(app, services) => void` and registers absolute paths (`app.post('/v1/…', …)`).
 * Auth, body limit and rate limits already ran for every /v1/* path.
 */
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { registerAccountRoutes } from './account.js';
import { registerCallbackRoutes } from './callbacks.js';
import { registerEmbeddingRoutes } from './embeddings.js';
import { registerFileRoutes } from './files.js';
import { registerImageRoutes } from './images.js';
import { registerKeyRoutes } from './keys.js';
import { registerMessageRoutes } from './messages.js';
import { registerModelRoutes } from './models.js';
import { registerResponseRoutes } from './responses.js';
import { registerTeamRoutes } from './teams.js';
import { registerUsageRoutes } from './usage.js';
import { registerVideoRoutes } from './video.js';

export type RouteGroup = (app: Hono<AppEnv>, services: Services) => void;

export const routeGroups: RouteGroup[] = [
  registerAccountRoutes,
  registerModelRoutes,
  registerMessageRoutes,
  registerImageRoutes,
  registerEmbeddingRoutes,
  registerResponseRoutes,
  registerFileRoutes,
  registerVideoRoutes,
  registerCallbackRoutes,
  registerKeyRoutes,
  registerTeamRoutes,
  registerUsageRoutes,
];
