/**
 * One value per key object for as long as the key lives. The Worker's env and its bindings live
 * as long as the isolate, so what is derived from them (parsed vars, the database client, prepared
 * queries) is built once, not on every request.
 */
export function cachedPer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = build(key);
      cache.set(key, value);
    }
    return value;
  };
}
