/**
 * A memo for repeated inputs on the redirect path (user agents, Accept-Language headers: the same few come again
 * and again, and parsing one is not free). A plain Map, where an LRU's bookkeeping cost more than the lookup; when
 * full, the oldest entry goes, so made-up inputs cannot grow it and the ones in use come straight back.
 */
export function memo<T extends object | boolean>(compute: (key: string) => T, capacity = 5_000): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      cache.set(key, value);
    }
    return value;
  };
}
