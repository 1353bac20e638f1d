// One real gateway for the whole run (the helper @modelgate/stream's tests use), started in
// vitest's main process so its servers use Node's fetch and streams rather than the DOM
// environment's. Tests get its URL and keys through inject('gateway').
import type { TestProject } from 'vitest/node';
import { type GatewayContext, startTestGateway } from '../../stream/test/gateway.js';

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: GatewayContext;
  }
}

export default async function setup(project: TestProject) {
  const { close, ...context } = await startTestGateway();
  project.provide('gateway', context);
  return close;
}
