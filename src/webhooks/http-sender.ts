/** What came back from one attempt: a status, or why there was none. */
export interface SendResult {
  statusCode: number | null;
  /** 'timeout', 'connection refused', ... when no response came. */
  error: string | null;
  latencyMs: number;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  timeoutMs: number;
}

function describeFailure(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** POSTs one webhook. Never throws: every failure is a result to record. */
export async function sendWebhook(request: WebhookRequest): Promise<SendResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    // The body is not needed; cancelling it frees the connection at once.
    await response.body?.cancel().catch(() => undefined);
    return { statusCode: response.status, error: null, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    return { statusCode: null, error: describeFailure(err, signal.aborted), latencyMs: Math.round(performance.now() - started) };
  }
}
