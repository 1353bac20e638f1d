// Every video provider the simulator serves, in docs/providers.md order (§3–§11).
import type { Provider } from '../context.js';
import type { RouteDef } from '../router.js';
import { byteplusProvider, byteplusRoutes } from './byteplus.js';
import { dashscopeProvider, dashscopeRoutes } from './dashscope.js';
import { geminiProvider, geminiRoutes } from './gemini.js';
import { klingProvider, klingRoutes } from './kling.js';
import { lumaProvider, lumaRoutes } from './luma.js';
import { minimaxProvider, minimaxRoutes } from './minimax.js';
import { runwayProvider, runwayRoutes } from './runway.js';
import { viduProvider, viduRoutes } from './vidu.js';
import { xaiProvider, xaiRoutes } from './xai.js';

export interface VideoProviderEntry {
  provider: Provider;
  routes: RouteDef[];
}

export const videoProviders: VideoProviderEntry[] = [
  { provider: xaiProvider, routes: xaiRoutes },
  { provider: geminiProvider, routes: geminiRoutes },
  { provider: klingProvider, routes: klingRoutes },
  { provider: byteplusProvider, routes: byteplusRoutes },
  { provider: minimaxProvider, routes: minimaxRoutes },
  { provider: dashscopeProvider, routes: dashscopeRoutes },
  { provider: viduProvider, routes: viduRoutes },
  { provider: runwayProvider, routes: runwayRoutes },
  { provider: lumaProvider, routes: lumaRoutes },
];
