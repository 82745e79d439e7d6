import type { IncomingHttpHeaders } from 'node:http';

/** One header's value; Node lower-cases names, so X-Client-ID and X-Client-Id are the same. A repeated header counts as absent. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header(headers, 'authorization') ?? '');
  return match?.[1];
}

export interface BasicCredentials {
  username: string;
  password: string;
}

export function basicCredentials(headers: IncomingHttpHeaders): BasicCredentials | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header(headers, 'authorization') ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
