/**
 * The Responses API feature for the service container: the state store on the database, the
 * service on the text service, and the retention sweep as background work.
 */
import type { CoreServices } from '../core-services.js';
import type { TextService } from '../text/service.js';
import { createResponsesService, type ResponsesService, startResponsesSweep } from './service.js';
import { createResponseStore } from './store.js';

export type { ResponsesService } from './service.js';

/**
 * @example
 * services.responses = createResponsesFeature(services, services.text);
 */
export function createResponsesFeature(core: CoreServices, text: TextService): ResponsesService {
  const store = createResponseStore(core.db);
  const log = core.log.child({ component: 'responses' });
  let stop: (() => void) | null = null;
  core.lifecycle.add({
    name: 'responses',
    start: () => {
      stop = startResponsesSweep(store, core.config.responses, log);
    },
    stop: () => stop?.(),
  });
  return createResponsesService({ text, store, log });
}
