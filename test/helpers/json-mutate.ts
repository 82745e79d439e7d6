export type Json = Record<string, unknown>;

/** Sets `value` at `path` in a copy of `json` (undefined removes the key); a path through a non-object leaves the copy unchanged. */
export function mutate(json: Json, path: readonly string[], value: unknown): Json {
  const copy = structuredClone(json);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) return copy;
    node = next as Json;
  }
  const last = path.at(-1) as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
