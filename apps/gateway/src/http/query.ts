/**
 * Query strings held to the spec like bodies are: a parameter the operation does not document is
 * a 400 naming it, so a misspelt filter (`?stauts=failed`) is an error instead of an unfiltered
 * list. The documented names come from the generated zod schema of the operation's query.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest } from './errors.js';

/**
 * @example
 * refuseUnknownQuery(c, zListVideoGenerationsQuery); // ?stauts=x → 400 unknown_parameter "stauts"
 */
export function refuseUnknownQuery(c: Context, schema: z.ZodObject): void {
  const documented = Object.keys(schema.shape);
  for (const name of new URL(c.req.url).searchParams.keys()) {
    if (!documented.includes(name)) {
      throw badRequest(
        `Unknown query parameter: ${name} (this operation takes ${documented.join(', ')}).`,
        name,
        'unknown_parameter',
      );
    }
  }
}
