// Every image endpoint the simulator serves beyond OpenAI's generations (docs/providers.md
// §12–§15): OpenAI's edits and variations, Gemini's generateContent for its image models,
// Seedream's image generations and FLUX Kontext's tasks. Each is added under its provider's prefix.
import type { Provider } from '../context.js';
import type { RouteDef } from '../router.js';
import { openaiProvider } from '../text/openai.js';
import { byteplusProvider } from '../video/byteplus.js';
import { geminiProvider } from '../video/gemini.js';
import { bflProvider, bflRoutes } from './bfl.js';
import { geminiImageRoutes } from './gemini-images.js';
import { imageEdits, imageVariations } from './openai-edits.js';
import { seedreamImageRoutes } from './seedream-images.js';

export const imageProviders: { provider: Provider; routes: RouteDef[] }[] = [
  {
    provider: openaiProvider,
    routes: [
      { method: 'POST', path: '/images/edits', handler: imageEdits },
      { method: 'POST', path: '/images/variations', handler: imageVariations },
    ],
  },
  { provider: geminiProvider, routes: geminiImageRoutes },
  { provider: byteplusProvider, routes: seedreamImageRoutes },
  { provider: bflProvider, routes: bflRoutes },
];
