/**
 * A Map of at most `max` entries for the in-process caches: setting a key makes it the newest, and
 * when the map is full the oldest entry goes.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    if (this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
