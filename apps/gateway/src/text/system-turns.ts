/**
 * A messages body with `system` turns, on a messages-format deployment that refuses them: it is
 * sent as the client wrote it first (an upstream that takes the turns keeps them in place, and
 * its prompt cache keeps its prefix); on the refusal it is sent again with the turns folded into
 * `system` (translate/system-turns.ts), and the deployment is remembered so later bodies are
 * folded before they go. One extra round trip per deployment and process. Create and
 * count_tokens both go through here.
 */
import type { TextDeployment } from '../models/catalog.js';
import { UpstreamError } from '../providers/text/types.js';
import { type Conversation, foldSystemTurns, hasSystemTurns } from '../translate/system-turns.js';

/** Deployments whose upstream refused a `system` turn. */
const REFUSE_SYSTEM_TURNS = new WeakSet<TextDeployment>();

/** Anthropic's refusal: `messages: Unexpected role "system". The Messages API accepts a top-level …`. */
const SYSTEM_ROLE_REFUSAL = /unexpected role\W+system/i;

const foldable = (body: Conversation, deployment: TextDeployment) =>
  deployment.provider.kind === 'anthropic' && hasSystemTurns(body);

/**
 * The body as it goes to `deployment`: folded when the deployment is known to refuse system
 * turns, else as sent.
 *
 * @example
 * const body = bodyFor(request.body, deployment);
 */
export function bodyFor<T extends Conversation>(body: T, deployment: TextDeployment): T {
  return REFUSE_SYSTEM_TURNS.has(deployment) && foldable(body, deployment)
    ? foldSystemTurns(body)
    : body;
}

/**
 * After `err` from `deployment` for `sent`: the body to send again when the upstream refused its
 * system turns (the deployment is remembered), or null for any other error.
 *
 * @example
 * const again = refoldAfter(err, sent, deployment);
 * if (again) return send(again);
 */
export function refoldAfter<T extends Conversation>(
  err: unknown,
  sent: T,
  deployment: TextDeployment,
): T | null {
  if (!foldable(sent, deployment)) return null; // already folded, or nothing to fold
  const refused =
    err instanceof UpstreamError && err.status === 400 && SYSTEM_ROLE_REFUSAL.test(err.message);
  if (!refused) return null;
  REFUSE_SYSTEM_TURNS.add(deployment);
  return foldSystemTurns(sent);
}
