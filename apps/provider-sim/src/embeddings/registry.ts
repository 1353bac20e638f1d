// The embedding endpoints the simulator serves (docs/providers.md §16, §17), under their
// providers' prefixes.
import type { Provider } from '../context.js';
import type { RouteDef } from '../router.js';
import { openaiProvider } from '../text/openai.js';
import { geminiProvider } from '../video/gemini.js';
import { geminiEmbeddingRoutes } from './gemini.js';
import { embeddings } from './openai.js';

export const embeddingProviders: { provider: Provider; routes: RouteDef[] }[] = [
  {
    provider: openaiProvider,
    routes: [{ method: 'POST', path: '/embeddings', handler: embeddings }],
  },
  { provider: geminiProvider, routes: geminiEmbeddingRoutes },
];
