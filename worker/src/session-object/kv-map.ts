/**
 * The entries of a Durable Object's storage under one key prefix, mirrored in memory: reads and
 * scans cost nothing, writes go through to storage. Only this object writes its storage, so the
 * mirror never goes stale; a restarted object loads it again on first use.
 */
export class KvMap<T> {
  readonly #kv: SyncKvStorage;
  readonly #prefix: string;
  #entries: Map<string, T> | null = null;

  constructor(kv: SyncKvStorage, prefix: string) {
    this.#kv = kv;
    this.#prefix = prefix;
  }

  #mirror(): Map<string, T> {
    if (!this.#entries) {
      this.#entries = new Map();
      for (const [key, value] of this.#kv.list<T>({ prefix: this.#prefix }))
        this.#entries.set(key.slice(this.#prefix.length), value);
    }
    return this.#entries;
  }

  get(key: string): T | undefined {
    return this.#mirror().get(key);
  }

  set(key: string, value: T) {
    this.#mirror().set(key, value);
    this.#kv.put(this.#prefix + key, value);
  }

  delete(key: string) {
    if (this.#mirror().delete(key)) this.#kv.delete(this.#prefix + key);
  }

  entries(): [string, T][] {
    return [...this.#mirror()];
  }
}
