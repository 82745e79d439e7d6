import type { z } from 'zod';
import { validationError } from './errors.js';
import { messageFor } from './issue-messages.js';

/** ['buckets', 0, 'criteria', 1, 'bucket_l2'] -> 'buckets[0].criteria[1].bucket_l2' */
export function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    const name = String(key);
    return acc === '' ? name : `${acc}.${name}`;
  }, '');
}

/** One message per offending field: the first issue on each path wins. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = fieldPath(issue.path, root);
    out[key] ??= issue.message;
  }
  return out;
}

/** Parses `input` or throws FAILED_VALIDATION naming each offending field (`root` names a whole-value failure). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, root: string): z.output<S> {
  const result = schema.safeParse(input, { error: messageFor });
  if (result.success) return result.data;
  throw validationError(fieldErrors(result.error.issues, root));
}
