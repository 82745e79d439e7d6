import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it: the body is the exact bytes on the wire. */
export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A status to answer with, optionally after a delay (longer than the sender's timeout makes a timeout). */
export type Answer = number | { status: number; delayMs: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves with the requests once there are at least n; fails after timeoutMs. */
  waitFor: (n: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  close: () => Promise<void>;
}

/** A real HTTP receiver on a loopback port; `answer` decides each response by its index (0-based). */
export async function startReceiver(answer: (request: ReceivedRequest, index: number) => Answer = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      const index = requests.push(received) - 1;
      const a = answer(received, index);
      const { status, delayMs } = typeof a === 'number' ? { status: a, delayMs: 0 } : a;
      const send = () => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
      };
      if (delayMs > 0) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    waitFor: async (n, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} requests, expected ${n}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL where nothing listens: connecting is refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}
