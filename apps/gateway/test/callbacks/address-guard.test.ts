import { describe, expect, it } from 'vitest';
import {
  assertCallbackUrlAllowed,
  checkCallbackUrl,
  classifyAddress,
  type HostResolver,
  parseIPv6,
} from '../../src/callbacks/address-guard.js';
import { ApiError } from '../../src/errors/api-error.js';

/** A resolver with fixed answers: no network, any name the test wants. */
function fixedResolver(table: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(url: string, options: Parameters<typeof assertCallbackUrlAllowed>[1] = {}) {
  const error = await assertCallbackUrlAllowed(url, { allowPrivate: false, ...options }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, url).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.status).toBe(400);
  expect(apiError.type).toBe('invalid_request_error');
  expect(apiError.param).toBe('callback_url');
  return apiError;
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'shared_cgnat'],
    ['100.127.255.255', 'shared_cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link_local'], // NAT64 of 169.254.169.254
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::1', 'private'], // 6to4 of 192.168.1.1
    ['::127.0.0.1', 'loopback'],
    ['::8.8.8.8', 'ipv4_translated'],
    ['2001:db8::1', 'documentation'],
    ['not an ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    'fbff::1', // just outside fc00::/7
    '2600::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it('parses every IPv6 text form to the same bytes', () => {
    const full = parseIPv6('0000:0000:0000:0000:0000:ffff:7f00:0001');
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(full);
    expect(parseIPv6('::ffff:7f00:1')).toEqual(full);
    expect(parseIPv6('0:0:0:0:0:ffff:127.0.0.1')).toEqual(full);
    expect(parseIPv6('1::')).toEqual(Uint8Array.from([0, 1, ...new Array(14).fill(0)]));
    expect(parseIPv6('1:2:3:4:5:6:7:8')?.at(15)).toBe(8);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});

describe('assertCallbackUrlAllowed (allow flag off)', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fd00::1]/hook',
    'http://0.0.0.0/hook',
    'http://100.64.1.1/hook',
    // The WHATWG parser turns these spellings into 127.0.0.1 before we look.
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://127.1/hook',
  ])('refuses %s', async (url) => {
    const error = await refusal(url);
    expect(error.code).toBe('callback_url_not_allowed');
  });

  it('refuses localhost, which the system resolver maps to loopback', async () => {
    const error = await refusal('http://localhost:9999/hook');
    expect(error.code).toBe('callback_url_not_allowed');
    expect(error.message).toMatch(/localhost resolves to a loopback address/);
    // A developer's local receiver: the message names the operator's switch.
    expect(error.message).toContain('MODELGATE_CALLBACK_ALLOW_PRIVATE=1');
  });

  it('names the switch for a literal private address too, not for a bad URL', async () => {
    expect((await refusal('http://192.168.1.20:3000/hook')).message).toContain(
      'MODELGATE_CALLBACK_ALLOW_PRIVATE=1',
    );
    expect((await refusal('ftp://example.com/hook')).message).not.toContain(
      'MODELGATE_CALLBACK_ALLOW_PRIVATE',
    );
  });

  it('refuses a host name that resolves to a private address', async () => {
    const resolve = fixedResolver({ 'hooks.internal.example': ['10.1.2.3'] });
    const error = await refusal('https://hooks.internal.example/cb', { resolve });
    expect(error.code).toBe('callback_url_not_allowed');
    expect(error.message).toContain('a private address');
    // Internal addresses are not echoed back to the caller.
    expect(error.message).not.toContain('10.1.2.3');
  });

  it('checks EVERY resolved address, not just the first', async () => {
    const resolve = fixedResolver({ 'mixed.example': ['93.184.215.14', '169.254.169.254'] });
    const error = await refusal('https://mixed.example/cb', { resolve });
    expect(error.message).toContain('a link-local address');
  });

  it('refuses other schemes, credentials, garbage and unresolvable hosts', async () => {
    expect((await refusal('ftp://93.184.215.14/x')).code).toBe('invalid_callback_url');
    expect((await refusal('file:///etc/passwd')).code).toBe('invalid_callback_url');
    expect((await refusal('https://user:pw@93.184.215.14/x')).code).toBe('invalid_callback_url');
    expect((await refusal('not a url')).code).toBe('invalid_callback_url');
    expect((await refusal(`https://example.com/${'a'.repeat(2048)}`)).code).toBe(
      'invalid_callback_url',
    );
    const resolve = fixedResolver({});
    expect((await refusal('https://nowhere.example/x', { resolve })).code).toBe(
      'callback_url_unresolvable',
    );
  });

  it('accepts public addresses and host names that resolve only to public ones', async () => {
    await expect(
      assertCallbackUrlAllowed('https://93.184.215.14/cb', { allowPrivate: false }),
    ).resolves.toBeUndefined();
    await expect(
      assertCallbackUrlAllowed('https://[2606:4700:4700::1111]/cb', { allowPrivate: false }),
    ).resolves.toBeUndefined();
    const resolve = fixedResolver({
      'hooks.example.com': ['93.184.215.14', '2606:4700:4700::1111'],
    });
    const target = await checkCallbackUrl('https://hooks.example.com:8443/cb?x=1', { resolve });
    expect(target.hostname).toBe('hooks.example.com');
    expect(target.addresses.map((a) => a.address)).toEqual([
      '93.184.215.14',
      '2606:4700:4700::1111',
    ]);
  });
});

describe('assertCallbackUrlAllowed (allow flag on)', () => {
  it('lets loopback and private addresses through, but still only http(s)', async () => {
    for (const url of [
      'http://127.0.0.1:1/x',
      'http://[::1]/x',
      'http://10.0.0.1/x',
      'http://localhost/x',
    ]) {
      await expect(assertCallbackUrlAllowed(url, { allowPrivate: true })).resolves.toBeUndefined();
    }
    expect((await refusal('gopher://127.0.0.1/x', { allowPrivate: true })).code).toBe(
      'invalid_callback_url',
    );
  });
});
