/**
 * A Durable Object's key-value storage, with the writes of a transition held back until it ends:
 * reads see them at once, and each key is written once however often the transition changed it.
 * Storage bills a row written per `put`, so a proof's change that touches the session three times
 * costs one row, not three. Outside a transition, writes go straight through.
 */
export class WriteBuffer {
  readonly #kv: SyncKvStorage;
  /** The transition's writes so far: a value, or undefined for a deletion. */
  #pending: Map<string, unknown> | null = null;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  get<T>(key: string): T | undefined {
    if (this.#pending?.has(key)) return this.#pending.get(key) as T | undefined;
    return this.#kv.get<T>(key);
  }

  /** The entries under `prefix`, in key order, with the transition's writes. */
  list<T>(prefix: string): [string, T][] {
    const entries = new Map<string, T>(this.#kv.list<T>({ prefix }));
    for (const [key, value] of this.#pending ?? [])
      if (!key.startsWith(prefix)) continue;
      else if (value === undefined) entries.delete(key);
      else entries.set(key, value as T);
    return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  put(key: string, value: unknown) {
    if (this.#pending) this.#pending.set(key, value);
    else this.#kv.put(key, value);
  }

  delete(key: string) {
    if (this.#pending) this.#pending.set(key, undefined);
    else this.#kv.delete(key);
  }

  /** Runs `change` holding its writes, then writes each key it changed once. */
  held<T>(change: () => T): T {
    if (this.#pending) return change();
    this.#pending = new Map();
    try {
      const result = change();
      for (const [key, value] of this.#pending)
        if (value === undefined) this.#kv.delete(key);
        else this.#kv.put(key, value);
      return result;
    } finally {
      this.#pending = null;
    }
  }
}
