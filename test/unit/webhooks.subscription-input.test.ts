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

  it('never repeats a credential back in its refusal', () => {
    expect(refusal(() => parseHeaderArgument('Authorization: Bearer HDRSECRET_colon'))).not.toContain('HDRSECRET');
    expect(refusal(() => validateSubscription({ ...base, url: 'https://user:URLSECRET_pw@ho st/x' }))).not.toContain('URLSECRET');
  });
});
