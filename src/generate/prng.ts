import { affordError } from '../domain/errors.js';

/**
 * A small seeded PRNG (sfc32, seeded through splitmix32). Math.random cannot
 * be seeded, and the generator must give byte-identical output for the same
 * options.
 */

function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Hashes a list of integers into one 32-bit value; order matters. */
export function hash32(...parts: readonly number[]): number {
  let h = 0x12345678;
  for (const p of parts) {
    // Seeds may exceed 32 bits; fold the high word in rather than dropping it.
    const lo = p >>> 0;
    const hi = Math.floor(p / 0x100000000) >>> 0;
    h = splitmix32(h ^ lo);
    h = splitmix32(h ^ hi);
  }
  return h;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = splitmix32(seed);
    this.b = splitmix32(this.a);
    this.c = splitmix32(this.b);
    this.d = 1;
    // The first outputs of sfc32 are poorly mixed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x100000000;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw affordError('INVALID_ARGUMENT', 'pick from an empty list');
    return item;
  }

  /** Picks `n` distinct items, keeping their original order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const chosen = new Set<number>();
    const k = Math.min(n, items.length);
    while (chosen.size < k) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i] as T);
  }

  /** Whole pence, uniform between two pound amounts. */
  pence(minPounds: number, maxPounds: number): number {
    return this.int(Math.round(minPounds * 100), Math.round(maxPounds * 100));
  }

  /** Scales an amount by a random factor in [1 - spread, 1 + spread]; never below 1p. */
  vary(pence: number, spread: number): number {
    return Math.max(1, Math.round(pence * (1 - spread + 2 * spread * this.next())));
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += this.nextUint32().toString(16).padStart(8, '0');
    return s.slice(0, length);
  }
}

/** A stream of its own per customer and purpose, so that one customer's data never depends on another's. */
export function streamFor(seed: number, customer: number, purpose: number): Rng {
  return new Rng(hash32(seed, customer, purpose));
}

export const STREAM_PROFILE = 1;
export const STREAM_FAULTS = 2;
export const STREAM_BEHAVIOURS = 3;
