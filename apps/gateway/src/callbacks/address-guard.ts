/**
 * SSRF guard for callback URLs. A callback URL is user input that makes the gateway open a connection,
 * so only http(s) is allowed and EVERY address its host resolves to must be public unicast. The check
 * runs at submit and again at delivery, and the delivery connects to the address checked here (no
 * second lookup a rebinding DNS server could answer differently). Addresses are judged as parsed
 * bytes, so every textual form (IPv4-mapped, NAT64, 6to4, compressed IPv6) is judged by the address
 * it really denotes.
 */
import { lookup } from 'node:dns/promises';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { type ApiError, badRequest } from '../errors/api-error.js';

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

// Which IP addresses a callback may reach: pure functions over parsed bytes.
/** Why an address is refused, or null when it is a public unicast address. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'shared_cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'unique_local'
  | 'ipv4_translated';

type V4Range = readonly [
  base: readonly [number, number, number, number],
  prefix: number,
  AddressClass,
];

// RFC 6890 special-purpose IPv4 ranges that must never be reached from the gateway.
const V4_BLOCKED: readonly V4Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'], // "this network"
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared_cgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link_local'], // cloud metadata (169.254.169.254) lives here
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, 'reserved'], // deprecated 6to4 relay anycast
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

/** Parses dotted-quad IPv4 into 4 bytes (strict: what `net.isIPv4` accepts). */
export function parseIPv4(text: string): Uint8Array | undefined {
  if (!isIPv4(text)) return undefined;
  return Uint8Array.from(text.split('.').map(Number));
}

/** Parses any IPv6 text form (compressed, embedded dotted IPv4, zone id) into 16 bytes. */
export function parseIPv6(text: string): Uint8Array | undefined {
  const withoutZone = text.replace(/%.*$/, '');
  if (!isIPv6(withoutZone)) return undefined;
  let head = withoutZone;
  const groups: number[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two 16-bit groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  let tailGroups: number[] = [];
  if (tail) {
    const v4 = parseIPv4(tail[1]!);
    if (!v4) return undefined;
    tailGroups = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    head = head.slice(0, -tail[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const leftGroups = left === '' ? [] : left.split(':').map((g) => Number.parseInt(g, 16));
  const rightGroups =
    right === undefined || right === '' ? [] : right.split(':').map((g) => Number.parseInt(g, 16));
  const explicit = leftGroups.length + rightGroups.length + tailGroups.length;
  const zeros = right === undefined ? 0 : 8 - explicit;
  groups.push(...leftGroups, ...new Array<number>(zeros).fill(0), ...rightGroups, ...tailGroups);
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

function inPrefix(bytes: Uint8Array, base: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte]! & mask) !== (base[byte]! & mask)) return false;
  }
  return true;
}

function classifyV4Bytes(bytes: Uint8Array): AddressClass | null {
  for (const [base, prefix, kind] of V4_BLOCKED) if (inPrefix(bytes, base, prefix)) return kind;
  return null;
}

function hexBase(groups: readonly number[]): number[] {
  const bytes: number[] = [];
  for (const group of groups) bytes.push(group >> 8, group & 0xff);
  while (bytes.length < 16) bytes.push(0);
  return bytes;
}

type V6Range = readonly [base: number[], prefix: number, AddressClass];

const V6_BLOCKED: readonly V6Range[] = [
  [hexBase([0x0100]), 64, 'reserved'], // discard-only
  [hexBase([0x2001, 0x0db8]), 32, 'documentation'],
  [hexBase([0x2001, 0x0000]), 32, 'ipv4_translated'], // Teredo: an obfuscated IPv4 inside
  [hexBase([0x0064, 0xff9b, 0x0001]), 48, 'ipv4_translated'], // local-use NAT64
  [hexBase([0xfc00]), 7, 'unique_local'],
  [hexBase([0xfe80]), 10, 'link_local'],
  [hexBase([0xfec0]), 10, 'reserved'], // deprecated site-local
  [hexBase([0xff00]), 8, 'multicast'],
];

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64 well-known prefix, 6to4). */
function embeddedIPv4(bytes: Uint8Array): Uint8Array | undefined {
  const zeroPrefix = (length: number) => bytes.subarray(0, length).every((b) => b === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated "compatible")
  if (zeroPrefix(10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.subarray(12);
  if (zeroPrefix(12)) return bytes.subarray(12);
  // ::ffff:0:a.b.c.d (SIIT)
  if (
    zeroPrefix(8) &&
    bytes[8] === 0xff &&
    bytes[9] === 0xff &&
    bytes[10] === 0 &&
    bytes[11] === 0
  ) {
    return bytes.subarray(12);
  }
  // 64:ff9b::/96 (NAT64 well-known prefix)
  if (inPrefix(bytes, hexBase([0x0064, 0xff9b]), 96)) return bytes.subarray(12);
  // 2002:a.b.c.d::/48 (6to4)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.subarray(2, 6);
  return undefined;
}

function classifyV6Bytes(bytes: Uint8Array): AddressClass | null {
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  const v4 = embeddedIPv4(bytes);
  if (v4) {
    const inner = classifyV4Bytes(v4);
    // ::a.b.c.d forms that wrap a public address are still not a route we expect a receiver to use.
    return inner ?? (bytes.subarray(0, 12).every((b) => b === 0) ? 'ipv4_translated' : null);
  }
  for (const [base, prefix, kind] of V6_BLOCKED) if (inPrefix(bytes, base, prefix)) return kind;
  return null;
}

/**
 * Classifies an IP address (v4 or v6 text). Returns why it must not be reached, or null when it is a
 * public unicast address. Anything unparseable counts as reserved.
 *
 * @example
 * classifyAddress('169.254.169.254'); // 'link_local'
 * classifyAddress('::ffff:10.0.0.1');  // 'private'
 * classifyAddress('93.184.215.14');   // null
 */
export function classifyAddress(address: string): AddressClass | null {
  const v4 = parseIPv4(address);
  if (v4) return classifyV4Bytes(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyV6Bytes(v6);
  return 'reserved';
}
