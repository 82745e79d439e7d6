import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeadLetter, redactRawEvent } from '../../src/domain/redact.js';

const SECRET = 'cs-7f3a9c1e-very-secret';

describe('redactRawEvent', () => {
  it('replaces customer_secret in a valid event and leaves the rest byte for byte', () => {
    const raw = `{"event_id":"e1", "type":"transaction.upserted","customer_secret" : "${SECRET}","data":{"amount":{"value":"12.50"}}}`;
    const redacted = redactRawEvent(raw);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toBe(raw.replace(`"${SECRET}"`, `"${REDACTED}"`));
  });

  it('redacts text that is not JSON by pattern, including an unterminated value', () => {
    expect(redactRawEvent(`{"customer_secret": "${SECRET}", "data": {oops`)).not.toContain(SECRET);
    expect(redactRawEvent(`{"customer_id":"c1","customer_secret":"${SECRET}`)).not.toContain(SECRET);
    expect(redactRawEvent(`garbage "customer_secret":"${SECRET}" more garbage`)).toBe(`garbage "customer_secret":"${REDACTED}" more garbage`);
  });

  it('catches a key written with JSON escapes, a secret that is not a string, and secrets nested in data', () => {
    const escaped = JSON.stringify({ customer_id: 'c1' }).replace('}', `,"customer\\u005fsecret":"${SECRET}"}`);
    expect(JSON.parse(escaped)).toHaveProperty('customer_secret', SECRET);
    expect(redactRawEvent(escaped)).not.toContain(SECRET);
    expect(redactRawEvent(JSON.stringify({ customer_secret: { value: SECRET } }))).not.toContain(SECRET);
    expect(redactRawEvent(JSON.stringify({ customer_secret: 123456789 }))).not.toContain('123456789');
    const nested = JSON.stringify({ data: { list: [{ client_secret: SECRET, access_token: SECRET, password: SECRET }] } });
    expect(redactRawEvent(nested)).not.toContain(SECRET);
  });

  it('catches keys named private_key, passphrase, credential(s) and cookie, in JSON and in text that is not', () => {
    for (const key of ['private_key', 'signing-private-key', 'privateKey', 'passphrase', 'keyPassphrase', 'credentials', 'db_credential', 'cookie', 'sessionCookie']) {
      const json = JSON.stringify({ event_id: 'e1', data: { [key]: SECRET } });
      expect(redactRawEvent(json), key).toBe(json.replace(`"${SECRET}"`, `"${REDACTED}"`));
      expect(redactRawEvent(`{"event_id":"e1","${key}":"${SECRET}", oops`), key).not.toContain(SECRET);
    }
    // A key that only ends like one is not one.
    const kept = JSON.stringify({ monkey: 'banana', keys: ['a'], cookies_eaten: 3, spin: 'top', pinned: true, shipping: 'x', pwds: 2 });
    expect(redactRawEvent(kept)).toBe(kept);
  });

  it('catches a credential whose words run together, a session key, and a pwd or pin, which were kept as sent', () => {
    for (const key of ['customersecret', 'clientsecret', 'accesstoken', 'session_key', 'sessionKey', 'sessionkey', 'pwd', 'user_pwd', 'userPwd', 'pin', 'card_pin', 'cardPin', 'CARD_PIN']) {
      const json = JSON.stringify({ event_id: 'e1', data: { [key]: SECRET } });
      expect(redactRawEvent(json), key).toBe(json.replace(`"${SECRET}"`, `"${REDACTED}"`));
    }
  });

  it('keeps nothing of text that is not JSON and names a credential the pattern cannot take, and keeps ordinary words', () => {
    const loose = [
      `{"customer_secret":["${SECRET}"],}`,
      `{"customer_secret" "${SECRET}"}`,
      `{'customer_secret':'${SECRET}'}`,
      `{"event_id":"e1","data":{"api_key":{"v":"${SECRET}"}} oops`,
    ];
    for (const raw of loose) expect(redactRawEvent(raw), raw).toBe(REDACTED);
    // A key written with a JSON escape (customer\u005fsecret) ends in a credential's word as written: its value goes.
    const escaped = redactRawEvent(`{"customer\\u005fsecret":"${SECRET}",}`);
    expect(escaped).not.toContain(SECRET);
    // A word like a credential's name, not written as a key, leaves the line as it is.
    for (const raw of ['{"description":"TOKEN PURCHASE", oops', '{"description":"secret santa gift" oops']) expect(redactRawEvent(raw)).toBe(raw);
  });

  it('redacts an event serialised twice or more, kept as text in a field, cut short, or with its key in camelCase or words', () => {
    const event = { event_id: 'h4', type: 'transaction.upserted', client_id: 'c', customer_id: 'u', customer_secret: SECRET, data: {} };
    const twice = JSON.stringify(JSON.stringify(event));
    const thrice = JSON.stringify(twice);
    const inField = JSON.stringify({ event_id: 'x', data: { note: JSON.stringify(event) } });
    const cut = twice.slice(0, twice.indexOf(SECRET) + 8);
    const forms = [twice, thrice, inField, cut, `customer_secret ${SECRET}`, JSON.stringify({ customerSecret: SECRET }),
      JSON.stringify({ 'customer secret': SECRET }), `{"apiKey" ${SECRET}`, JSON.stringify({ note: `customerSecret: ${SECRET}` })];
    for (const raw of forms) expect(redactRawEvent(raw), raw).not.toContain(SECRET.slice(0, 10));
    // What can be kept is kept: the event read twice still reads as itself, its secret marked.
    expect(JSON.parse(JSON.parse(redactRawEvent(twice)) as string)).toEqual({ ...event, customer_secret: REDACTED });
    expect(JSON.parse(redactRawEvent(inField))).toEqual({ event_id: 'x', data: { note: JSON.stringify({ ...event, customer_secret: REDACTED }) } });
    // Words that are not keys stay: a description, or text in an event that parses.
    for (const raw of [JSON.stringify({ description: 'SECRET ESCAPES LTD' }), JSON.stringify({ description: 'TOKEN PURCHASE' })]) expect(redactRawEvent(raw)).toBe(raw);
  });

  it('keeps lines without credentials unchanged, however deep or odd', () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`;
    expect(redactRawEvent(deep)).toBe(deep);
    const plain = '{"event_id":"e1","amount":9999999999999999999999.99,"description":"a secret recipe"}';
    expect(redactRawEvent(plain)).toBe(plain);
    expect(redactRawEvent('\u0000\uFFFD not json')).toBe('\u0000\uFFFD not json');
  });
});

describe('redactDeadLetter', () => {
  it('redacts a secret written without quotes, and the piece of it that a JSON parse error quotes', () => {
    const raw = `{"event_id":"e1","customer_secret":${SECRET}}`;
    let reason = '';
    try {
      JSON.parse(raw);
    } catch (err) {
      reason = `invalid JSON: ${(err as Error).message}`;
    }
    expect(reason).toContain(SECRET.slice(0, 8));
    const kept = redactDeadLetter(raw, reason);
    expect(kept.raw).toBe(`{"event_id":"e1","customer_secret":"${REDACTED}"}`);
    expect(kept.reason).not.toContain(SECRET.slice(0, 4));
    expect(kept.reason).toMatch(/^invalid JSON: Unexpected token 'c' is not valid JSON$/);
  });

  it('removes a whole secret from any reason, and leaves the reasons of lines without credentials alone', () => {
    expect(redactDeadLetter(`{"customer_secret":"${SECRET}"}`, `bad secret ${SECRET}`).reason).toBe(`bad secret ${REDACTED}`);
    const reason = `invalid JSON: Unexpected token 'h', "this is not json" is not valid JSON`;
    expect(redactDeadLetter('this is not json', reason)).toEqual({ raw: 'this is not json', reason });
  });

  it('drops the quoted piece of a line whose text it withholds', () => {
    const raw = `{'customer_secret':'${SECRET}'}`;
    let reason = '';
    try {
      JSON.parse(raw);
    } catch (err) {
      reason = `invalid JSON: ${(err as Error).message}`;
    }
    const kept = redactDeadLetter(raw, reason);
    expect(kept.raw).toBe(REDACTED);
    expect(kept.reason).not.toContain(SECRET.slice(0, 4));
    expect(kept.reason).not.toContain('customer_secret');
  });
});
