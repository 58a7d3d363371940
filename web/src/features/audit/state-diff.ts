/** One field of an entity's state: its path (`listing.name`, `reports[0].reason`) and its value as JSON. */
export interface StateField {
  path: string;
  value: string;
  /** New or different since the step before. */
  changed: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The state as path → JSON value, leaves only; a list of plain values stays one field. */
export function flattenState(state: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      if (keys.length === 0 && path) fields.set(path, '{}');
      for (const key of keys) walk(value[key], path ? `${path}.${key}` : key);
    } else if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else {
      fields.set(path || '(value)', JSON.stringify(value) ?? 'undefined');
    }
  };
  walk(state, '');
  return fields;
}

/** The fields of `state`, each marked when it differs from `before`, and the paths that went away. */
export function diffStates(before: unknown, state: unknown): { fields: StateField[]; removed: { path: string; value: string }[] } {
  const now = flattenState(state);
  const then = before === undefined ? new Map<string, string>() : flattenState(before);
  const fields = [...now].map(([path, value]) => ({ path, value, changed: then.get(path) !== value }));
  const removed = [...then].filter(([path]) => !now.has(path)).map(([path, value]) => ({ path, value }));
  return { fields, removed };
}
