/**
 * A small map in isolate memory whose entries live `ttlMs` and of which at most `max` are kept
 * (the oldest inserted go first). For data a hot path reads on every request and that changes
 * rarely; what a write in this isolate changes it forgets at once (`forget`), other isolates see
 * the change within `ttlMs`. An expired entry is not answered by `get` but kept (`lastKnown`).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > now ? entry.value : undefined;
  }

  /**
   * The value even past its time, with when it expired: an entry is kept until `max` pushes it out
   * or it is forgotten, so a caller whose source is away may fall back on what it last read
   * (docs/decisions/0047). What was forgotten (a write said it changed) is never answered.
   */
  lastKnown(key: K): { value: V; until: number } | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V, now = Date.now()): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  forget(key: K): void {
    this.entries.delete(key);
  }
}
