import type { z } from 'zod';

/** Messages in the interface's style: a required-value message or an invalid-value message. */
export function messageFor(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is required';
    if (Array.isArray(issue.input) && issue.expected === 'string') return 'must be given once';
    return `must be a valid ${issue.expected}`;
  }
  if (issue.code === 'unrecognized_keys') return 'has unknown fields';
  if (issue.code === 'invalid_value') return `must be one of: ${issue.values.map(String).join(', ')}`;
  return undefined;
}
