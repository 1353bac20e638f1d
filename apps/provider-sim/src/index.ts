/**
 * @modelgate/provider-sim — a local server speaking the real wire protocols of OpenAI, Anthropic
 * and nine video providers (docs/providers.md), with fault injection.
 *
 * @example
 * import { startSimulator } from '@modelgate/provider-sim';
 * const sim = await startSimulator();
 * // OpenAI base URL: `${sim.url}/openai/v1`, Anthropic: `${sim.url}/anthropic`, …
 * sim.faults.add({ kind: 'status', status: 503, count: 1, match: { path: '/openai' } });
 * await sim.close();
 */

export {
  type ActiveFault,
  type DelayFault,
  type DropMidStreamFault,
  type Fault,
  FaultController,
  FaultDefinitionError,
  type FaultKind,
  type FaultMatch,
  type HangFault,
  type LoseResponseFault,
  type Result404Fault,
  type StatusFault,
  type StreamErrorFault,
  type TaskFailFault,
} from './faults.js';
export {
  createRaster,
  decodePng,
  type Raster,
  rasterToPng,
} from './images/raster.js';
export type { SimulatorOptions } from './options.js';
export { PROVIDER_PREFIXES } from './prefixes.js';
export { type Simulator, startSimulator } from './server.js';
export type { TextModelLists } from './text/models.js';
export { signKlingJwt } from './video/jwt.js';
export { buildMp4, type Mp4Spec } from './video/mp4.js';
