import { afterEach, describe, expect, it } from 'vitest';
import { stopOnSignals } from '../../src/app/service.js';
import { createLogger } from '../../src/logger.js';

describe('stopping on signals', () => {
  afterEach(() => {
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });

  it('exits once the one stop has ended, however many signals come while it runs', async () => {
    let finish: (() => void) | undefined;
    let stops = 0;
    const exits: number[] = [];
    stopOnSignals(
      {
        stop: () => {
          stops += 1;
          return new Promise<void>((resolve) => {
            finish = resolve;
          });
        },
      },
      createLogger('silent'),
      (code) => void exits.push(code),
    );
    process.emit('SIGTERM');
    // A second, different signal while the first stop runs: it waits for that stop, and exits no sooner.
    process.emit('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stops).toBe(1);
    expect(exits).toEqual([]);
    finish?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([0]);
  });

  it('exits 1 when stopping fails', async () => {
    const exits: number[] = [];
    stopOnSignals({ stop: () => Promise.reject(new Error('the store would not close')) }, createLogger('silent'), (code) => void exits.push(code));
    process.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([1]);
  });
});
