/**
 * SSRF guard for callback URLs. A callback URL is user input that makes the gateway open a connection,
 * so only http(s) is allowed and EVERY address its host resolves to must be public unicast. The check
 * runs at submit and again at delivery, and the delivery connects to the address checked here (no
 * second lookup a rebinding DNS server could answer differently).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type ApiError, badRequest } from '../errors/api-error.js';
import { type AddressClass, classifyAddress } from './ip-ranges.js';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (default: the system resolver, `dns.lookup` all). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AddressGuardOptions {
  /** Let loopback/private addresses through (`config.callbacks.allowPrivate`; development and tests). Default false. */
  allowPrivate?: boolean;
  /** Injected resolver (tests); default `dns.lookup(host, { all: true })`. */
  resolve?: HostResolver;
}

/** A URL that passed the guard, with the addresses to connect to (in resolver order). */
export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets: the Host header and TLS server name. */
  hostname: string;
  addresses: ResolvedAddress[];
}

/** Why a callback URL was refused: `code` is machine-readable; `address` names the offending one. */
export class CallbackUrlError extends Error {
  override readonly name = 'CallbackUrlError';
  constructor(
    readonly code:
      | 'invalid_callback_url'
      | 'callback_url_not_allowed'
      | 'callback_url_unresolvable',
    message: string,
    readonly address?: string,
    readonly addressClass?: AddressClass,
  ) {
    super(message);
  }
}

const MAX_URL_LENGTH = 2048;

export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

/**
 * Parses, resolves and checks a callback URL. Throws `CallbackUrlError`.
 *
 * @example
 * const target = await checkCallbackUrl('https://hooks.example.com/modelgate');
 * // target.addresses[0].address is what the delivery connects to
 */
export async function checkCallbackUrl(
  rawUrl: string,
  options: AddressGuardOptions = {},
): Promise<CheckedTarget> {
  const url = parseCallbackUrl(rawUrl);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literalFamily = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literalFamily !== 0) {
    addresses = [{ address: hostname, family: literalFamily as 4 | 6 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(hostname);
    } catch (error) {
      throw new CallbackUrlError(
        'callback_url_unresolvable',
        `callback_url host ${hostname} cannot be resolved (${(error as { code?: string }).code ?? 'lookup failed'}).`,
      );
    }
    if (addresses.length === 0) {
      throw new CallbackUrlError(
        'callback_url_unresolvable',
        `callback_url host ${hostname} has no address.`,
      );
    }
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const kind = classifyAddress(address);
      if (kind !== null) {
        const refused =
          literalFamily !== 0
            ? `callback_url must be a public address; ${address} is ${describe(kind)}.`
            : // The address itself is not echoed: that would let callers map internal DNS names.
              `callback_url host ${hostname} resolves to ${describe(kind)}; only public addresses are allowed.`;
        throw new CallbackUrlError(
          'callback_url_not_allowed',
          `${refused} ${ALLOW_PRIVATE_HINT}`,
          address,
          kind,
        );
      }
    }
  }
  return { url, hostname, addresses };
}

/**
 * Said with every refused private address: a developer's local receiver (localhost, a LAN host)
 * is refused by default, and the operator's switch is the one thing that lets it through.
 */
const ALLOW_PRIVATE_HINT =
  'To deliver to local or private receivers (development), the operator starts the gateway with MODELGATE_CALLBACK_ALLOW_PRIVATE=1.';

function parseCallbackUrl(rawUrl: string): URL {
  if (typeof rawUrl !== 'string' || rawUrl.length === 0 || rawUrl.length > MAX_URL_LENGTH) {
    throw new CallbackUrlError(
      'invalid_callback_url',
      `callback_url must be a URL of at most ${MAX_URL_LENGTH} characters.`,
    );
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new CallbackUrlError('invalid_callback_url', 'callback_url is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CallbackUrlError('invalid_callback_url', 'callback_url must use http or https.');
  }
  if (url.username !== '' || url.password !== '') {
    throw new CallbackUrlError(
      'invalid_callback_url',
      'callback_url must not contain credentials.',
    );
  }
  return url;
}

function describe(kind: AddressClass): string {
  const words: Record<AddressClass, string> = {
    unspecified: 'an unspecified address',
    loopback: 'a loopback address',
    private: 'a private address',
    link_local: 'a link-local address',
    shared_cgnat: 'a carrier-grade NAT address',
    multicast: 'a multicast address',
    broadcast: 'the broadcast address',
    reserved: 'a reserved address',
    documentation: 'a documentation address',
    unique_local: 'a unique-local address',
    ipv4_translated: 'an IPv4-translated address',
  };
  return words[kind];
}

/**
 * Submit-time check: throws ApiError 400 (`param: callback_url`) unless the URL is http(s) and every
 * address of its host is public (or private addresses are allowed).
 *
 * @example
 * await assertCallbackUrlAllowed(body.callback_url, { allowPrivate: config.callbacks.allowPrivate });
 */
export async function assertCallbackUrlAllowed(
  url: string,
  options: AddressGuardOptions = {},
): Promise<void> {
  try {
    await checkCallbackUrl(url, options);
  } catch (error) {
    if (error instanceof CallbackUrlError) throw toApiError(error);
    throw error;
  }
}

function toApiError(error: CallbackUrlError): ApiError {
  return badRequest(error.message, 'callback_url', error.code);
}
