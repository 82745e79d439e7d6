export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `done` holds, checking every `everyMs`; fails after `withinMs`, with `state()` in the message. */
export async function until(done: () => boolean, state: () => string, withinMs = 60_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${state()}`);
    await sleep(everyMs);
  }
}
