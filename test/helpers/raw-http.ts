import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: string;
  body: string;
  /** Milliseconds from the last byte written to the connection's close. */
  closedAfterMs: number;
}

/**
 * Sends bytes as they are over a TCP socket (what fetch refuses to send:
 * malformed lines, oversized headers, bad chunking) and reads until the
 * server closes the connection.
 */
export function rawRequest(base: string, request: string | Buffer): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    // Written, not ended: a half-closed socket would itself be a malformed request (or, cut short, one still arriving).
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request, () => (sentAt = performance.now())));
    // A guard, not an assertion: a server that never answers fails the test instead of hanging it.
    socket.setTimeout(20_000, () => socket.destroy());
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: split < 0 ? '' : text.slice(split + 4), closedAfterMs: performance.now() - sentAt });
    });
  });
}

/** A request line, headers and body, with Connection: close so that the server ends the exchange. */
export function httpText(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== '' && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
