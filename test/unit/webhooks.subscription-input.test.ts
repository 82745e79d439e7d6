import { describe, expect, it } from 'vitest';
import { MAX_HEADER_VALUE, MAX_URL_LENGTH, parseHeaderArgument, validateSubscription } from '../../src/webhooks/subscription-input.js';

const base = { clientId: 'client-a', url: 'https://hooks.example.com/afford', events: ['customers.deleted'] };
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('a subscription as given', () => {
  it('refuses headers no delivery could send, rather than fail every delivery eleven times', () => {
    for (const name of ['Upgrade', 'Keep-Alive', 'Expect', 'Proxy-Connection', 'TE']) {
      expect(refusal(() => validateSubscription({ ...base, headers: { [name]: 'x' } })), name).toMatch(/is set by the service and cannot be configured/);
    }
    for (const value of ['price €5', 'a\u0001b', ' padded', 'padded\t']) {
      expect(refusal(() => validateSubscription({ ...base, headers: { 'X-Note': value } })), JSON.stringify(value)).toMatch(/must be visible Latin-1 characters/);
    }
    expect(refusal(() => validateSubscription({ ...base, headers: { 'X-Note': 'x'.repeat(MAX_HEADER_VALUE + 1) } }))).toMatch(/at most 4096 characters/);
    expect(refusal(() => validateSubscription({ ...base, url: `https://hooks.example.com/${'x'.repeat(MAX_URL_LENGTH)}` }))).toMatch(/at most 2048 characters/);
    // Short as typed, long once percent-encoded, as it would be stored and sent.
    expect(refusal(() => validateSubscription({ ...base, url: `https://hooks.example.com/${'é'.repeat(400)}` }))).toMatch(/at most 2048 characters, percent-encoded/);
    // What a header can carry is kept.
    expect(validateSubscription({ ...base, headers: { Authorization: 'Bearer abc.def', 'X-Tabbed': 'a\tb', 'X-Latin': 'café' } }).headers)
      .toEqual({ Authorization: 'Bearer abc.def', 'X-Tabbed': 'a\tb', 'X-Latin': 'café' });
  });

  it('refuses a subscription no delivery could reach, and a header given twice, rather than drop or merge it', () => {
    expect(refusal(() => validateSubscription({ ...base, url: 'http://hooks.example.com:0/h' }))).toBe("the webhook URL's port must be from 1 to 65535");
    for (const url of ['http://a..b/h', `https://${'x'.repeat(64)}.example/h`, `https://${'abc.'.repeat(64)}example/h`]) {
      expect(refusal(() => validateSubscription({ ...base, url })), url).toMatch(/^the webhook URL's host is not a valid name/);
    }
    expect(refusal(() => validateSubscription({ ...base, clientId: 'c'.repeat(201) }))).toBe('a client id is at most 200 characters');
    // The body goes as it is: a receiver honouring a coding named here could not read it.
    expect(refusal(() => validateSubscription({ ...base, headers: { 'Content-Encoding': 'gzip' } }))).toMatch(/is set by the service and cannot be configured/);
    // Given twice: the same case kept only the last, another case sent both joined by a comma.
    for (const headers of [[['X-A', '1'], ['X-A', '2']], [['Authorization', 'AAA'], ['authorization', 'BBB']]] as const) {
      expect(refusal(() => validateSubscription({ ...base, headers })), JSON.stringify(headers)).toMatch(/^header \S+ is given twice: give it once/);
    }
    // What can be reached is kept: an IP, an IPv6 host, a name ending in a dot, a port.
    for (const url of ['http://10.0.0.5:8443/h', 'http://[::1]:9000/h', 'https://hooks.example.com./h', `https://${'x'.repeat(63)}.example/h`]) {
      expect(refusal(() => validateSubscription({ ...base, url })), url).toBe('accepted');
    }
    expect(validateSubscription({ ...base, headers: [['X-A', '1'], ['X-B', '2']] }).headers).toEqual({ 'X-A': '1', 'X-B': '2' });
  });

  it('never repeats a credential back in its refusal', () => {
    expect(refusal(() => parseHeaderArgument('Authorization: Bearer HDRSECRET_colon'))).not.toContain('HDRSECRET');
    expect(refusal(() => validateSubscription({ ...base, url: 'https://user:URLSECRET_pw@ho st/x' }))).not.toContain('URLSECRET');
  });
});
