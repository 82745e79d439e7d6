import { z } from 'zod';
import { LIMITS } from './event-limits.js';

const LONE_SURROGATE = /\p{Cs}/u;

/** A string of at most `max` characters, with no unpaired surrogate (it could not be stored as UTF-8 without changing it). */
export function boundedText(max: number): z.ZodString {
  return z.string().max(max, `must be at most ${max} characters`).refine((s) => !LONE_SURROGATE.test(s), 'must be valid Unicode text');
}

export const idText = boundedText(LIMITS.id).min(1, 'is required');
export const freeText = boundedText(LIMITS.text);
export const codeText = boundedText(LIMITS.code);
