import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/logger.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQtYSJ9.c2lnbmF0dXJlLWJ5dGVz';

describe('a URL as it is logged', () => {
  it('leaves no token, under whatever name or none, in the query or the path', () => {
    for (const url of [`/x?jwt=${TOKEN}`, `/x?bearer=${TOKEN}`, `/x?assertion=${TOKEN}`, `/x?${TOKEN}`, `/x?a=1&note=${TOKEN}`, `/x/${TOKEN}/y`, `/x?${TOKEN}=1`]) {
      const logged = redactUrl(url);
      expect(logged, url).not.toContain('c2lnbmF0dXJl');
      expect(logged, url).toContain('[redacted]');
    }
  });

  it('keeps what is not a credential as it was', () => {
    expect(redactUrl('/financial/v2/transactions?date_from=2024-01-01&page_size=10')).toBe('/financial/v2/transactions?date_from=2024-01-01&page_size=10');
    expect(redactUrl('/x?jwt=abc')).toBe('/x?jwt=[redacted]');
  });
});
