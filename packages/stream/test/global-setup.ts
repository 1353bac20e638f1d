// One real gateway for the whole run; tests get its URL and keys through inject('gateway').
import type { TestProject } from 'vitest/node';
import { type GatewayContext, startTestGateway } from './gateway.js';

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
