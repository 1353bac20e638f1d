// The simulator's own control API under /__sim: faults and request statistics.
import type { Ctx, ErrorSpec, Provider } from './context.js';
import { HttpError } from './errors.js';
import { type Fault, FaultDefinitionError } from './faults.js';
import { sendEmpty, sendJson } from './respond.js';
import type { RouteDef } from './router.js';
import type { Stats } from './stats.js';

export const controlProvider: Provider = {
  id: 'sim',
  prefix: '/__sim',
  renderError(error: ErrorSpec) {
    return {
      status: error.status,
      body: { error: { message: error.message, code: error.code ?? null } },
    };
  },
};

function addFaults(ctx: Ctx): void {
  const input = ctx.body;
  const list = Array.isArray(input) ? input : [input];
  const ids: string[] = [];
  try {
    for (const fault of list) ids.push(ctx.sim.faults.add(fault as Fault));
  } catch (error) {
    if (error instanceof FaultDefinitionError) {
      // Keep the batch atomic: drop what this request added before the bad entry.
      for (const id of ids) ctx.sim.faults.remove(id);
      throw new HttpError({ status: 400, message: error.message, code: error.code });
    }
    throw error;
  }
  sendJson(ctx, 201, { ids, faults: ctx.sim.faults.list() });
}

export function controlRoutes(stats: Stats): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/health',
      control: true,
      handler: (ctx) => sendJson(ctx, 200, { ok: true }),
    },
    { method: 'POST', path: '/faults', control: true, handler: addFaults },
    {
      method: 'GET',
      path: '/faults',
      control: true,
      handler: (ctx) => sendJson(ctx, 200, { faults: ctx.sim.faults.list() }),
    },
    {
      method: 'DELETE',
      path: '/faults',
      control: true,
      handler: (ctx) => {
        ctx.sim.faults.clear();
        sendEmpty(ctx, 204);
      },
    },
    {
      method: 'DELETE',
      path: '/faults/{id}',
      name: 'DELETE /__sim/faults/{id}',
      control: true,
      handler: (ctx) => {
        if (!ctx.sim.faults.remove(ctx.params[0]!))
          throw new HttpError({ status: 404, message: 'No such fault' });
        sendEmpty(ctx, 204);
      },
    },
    {
      method: 'GET',
      path: '/stats',
      control: true,
      handler: (ctx) => sendJson(ctx, 200, stats.snapshot()),
    },
    {
      method: 'DELETE',
      path: '/stats',
      control: true,
      handler: (ctx) => {
        stats.reset();
        sendEmpty(ctx, 204);
      },
    },
  ];
}
