/** One buffer per object's storage, so that whatever writes an entry keeps the copy true. */
const buffers = new WeakMap<DurableObjectStorage, WriteBuffer>();

/**
 * A Durable Object's key-value entries, read once and kept in memory, with the writes of a
 * transition held back until it ends. Storage bills a row written per `put`, so each key a
 * transition changed is written once however often it changed it; and a read deserializes an
 * entry only the first time (a CPU profile put re-reading them at a fifth of a proof's Worker
 * time). Only the object writes its storage, through this buffer (`WriteBuffer.of`), so the copy
 * never goes stale; whatever writes an entry past it (a test's surgery) calls `forget`.
 */
export class WriteBuffer {
  readonly #kv: SyncKvStorage;
  /** Entries as storage has them, read so far: a value, or undefined for none. */
  readonly #stored = new Map<string, unknown>();
  /** Prefixes whose every entry is in `#stored`. */
  readonly #listed = new Set<string>();
  /** The transition's writes so far: a value, or undefined for a deletion. */
  #pending: Map<string, unknown> | null = null;
  /** What adds itself to a transition's writes just before they are made (seen-nonces.ts). */
  readonly #riders: ((pending: Map<string, unknown>) => void)[] = [];

  static of(storage: DurableObjectStorage): WriteBuffer {
    let buffer = buffers.get(storage);
    if (!buffer) {
      buffer = new WriteBuffer(storage.kv);
      buffers.set(storage, buffer);
    }
    return buffer;
  }

  private constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  /** An entry as it is now. Read only: `edit` or `update` to change it. */
  get<T>(key: string): T | undefined {
    if (this.#pending?.has(key)) return this.#pending.get(key) as T | undefined;
    if (!this.#stored.has(key)) this.#stored.set(key, this.#kv.get(key));
    return this.#stored.get(key) as T | undefined;
  }

  /** The entries under `prefix`, in key order, with the transition's writes. Read only. */
  list<T>(prefix: string): [string, T][] {
    if (!this.#listed.has(prefix)) {
      for (const [key, value] of this.#kv.list({ prefix })) this.#stored.set(key, value);
      this.#listed.add(prefix);
    }
    const entries = new Map<string, unknown>();
    for (const [key, value] of this.#stored) if (key.startsWith(prefix)) entries.set(key, value);
    for (const [key, value] of this.#pending ?? [])
      if (key.startsWith(prefix)) entries.set(key, value);
    return [...entries]
      .filter((entry): entry is [string, T] => entry[1] !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * In a transition: the entry to change, a copy of its own that the transition's end writes
   * (a transition that fails leaves the kept copy as storage has it).
   */
  edit<T>(key: string): T | undefined {
    if (!this.#pending) throw new Error("edit runs in a transition (`held`)");
    if (!this.#pending.has(key)) {
      const value = this.get<T>(key);
      if (value === undefined) return undefined;
      this.#pending.set(key, structuredClone(value));
    }
    return this.#pending.get(key) as T | undefined;
  }

  /** Changes an entry outside a transition: a copy is changed and written. */
  update<T>(key: string, change: (value: T) => void): boolean {
    const value = this.get<T>(key);
    if (value === undefined) return false;
    const changed = structuredClone(value);
    change(changed);
    this.put(key, changed);
    return true;
  }

  put(key: string, value: unknown) {
    if (this.#pending) {
      this.#pending.set(key, value);
      return;
    }
    this.#kv.put(key, value);
    this.#stored.set(key, value);
  }

  delete(key: string) {
    if (this.#pending) {
      this.#pending.set(key, undefined);
      return;
    }
    this.#kv.delete(key);
    this.#stored.set(key, undefined);
  }

  /**
   * `rider` sees each transition's writes just before they are made, and may add to the entries
   * written (not add entries): what it adds costs no row of its own.
   */
  ride(rider: (pending: Map<string, unknown>) => void) {
    this.#riders.push(rider);
  }

  /** Runs `change` holding its writes, then writes each key it changed once. */
  held<T>(change: () => T): T {
    if (this.#pending) return change();
    const pending = new Map<string, unknown>();
    this.#pending = pending;
    let result: T;
    try {
      result = change();
      for (const rider of this.#riders) rider(pending);
      for (const [key, value] of pending)
        if (value === undefined) this.#kv.delete(key);
        else this.#kv.put(key, value);
    } finally {
      this.#pending = null;
    }
    for (const [key, value] of pending) this.#stored.set(key, value);
    return result;
  }

  /** Storage changed past the buffer (it was deleted, or entries were made some other way). */
  forget() {
    this.#stored.clear();
    this.#listed.clear();
  }
}
