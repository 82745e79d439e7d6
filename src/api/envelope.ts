/** The interface's response envelope: operation_id, data, metadata. */
export function envelope<O extends string, D, M extends object = Record<string, never>>(operationId: O, data: D, metadata?: M) {
  return { operation_id: operationId, data, metadata: metadata ?? ({} as M) };
}
