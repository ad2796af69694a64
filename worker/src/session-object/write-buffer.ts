/** One buffer per object's storage, so that whatever writes an entry keeps the copy true. */
const buffers = new WeakMap<DurableObjectStorage, WriteBuffer>();

/**
 * Entries kept inside another entry's record while they are small (`inline`): the entries under
 * `prefix` live in the record of `host`, up to `maxBytes` of them together, so a change of the
 * host and of one of them is one row written, not two; one that does not fit has a record of its
 * own. Storage bills a row written per key put or deleted, however large its value.
 */
interface Inlining {
  prefix: string;
  host: string;
  maxBytes: number;
}

/** The field of the host's record that holds the entries inlined in it. */
const INLINED = "inlined";

/**
 * A Durable Object's key-value entries, read once and kept in memory, with the writes of a
 * transition held back until it ends. Storage bills a row written per `put`, so each key a
 * transition changed is written once however often it changed it — and entries inlined in
 * another (`inline`) are written with it; and a read deserializes an entry only the first time (a
 * CPU profile put re-reading them at a fifth of a proof's Worker time). Only the object writes its
 * storage, through this buffer (`WriteBuffer.of`), so the copy never goes stale; whatever writes
 * an entry past it (a test's surgery) calls `forget`.
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
  #inlining: Inlining | null = null;
  /** Whether the host's record was read (and with it, every entry inlined in it). */
  #hostRead = false;
  /** The entries that live in the host's record, and the bytes they take there. */
  readonly #inlined = new Set<string>();
  #inlinedBytes = 0;

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

  /** Keeps the entries under `prefix` inside `host`'s record while they fit in `maxBytes`. */
  inline(prefix: string, host: string, maxBytes: number) {
    this.#inlining = { prefix, host, maxBytes };
  }

  #inlinable(key: string): boolean {
    return this.#inlining !== null && key.startsWith(this.#inlining.prefix);
  }

  /** Reads the host's record once: the host's entry, and each entry inlined in it. */
  #readHost() {
    const inlining = this.#inlining;
    if (!inlining || this.#hostRead) return;
    this.#hostRead = true;
    const record = this.#kv.get<Record<string, unknown>>(inlining.host);
    if (record === undefined) {
      this.#stored.set(inlining.host, undefined);
      return;
    }
    const { [INLINED]: inlined, ...entry } = record;
    this.#stored.set(inlining.host, entry);
    for (const [key, value] of Object.entries((inlined ?? {}) as Record<string, unknown>)) {
      this.#stored.set(key, value);
      this.#inlined.add(key);
      this.#inlinedBytes += JSON.stringify(value).length;
    }
  }

  /** An entry as it is now. Read only: `edit` or `update` to change it. */
  get<T>(key: string): T | undefined {
    if (this.#pending?.has(key)) return this.#pending.get(key) as T | undefined;
    if (key === this.#inlining?.host || this.#inlinable(key)) this.#readHost();
    if (!this.#stored.has(key)) this.#stored.set(key, this.#kv.get(key));
    return this.#stored.get(key) as T | undefined;
  }

  /** The entries under `prefix`, in key order, with the transition's writes. Read only. */
  list<T>(prefix: string): [string, T][] {
    if (!this.#listed.has(prefix)) {
      this.#readHost();
      for (const [key, value] of this.#kv.list({ prefix }))
        if (key !== this.#inlining?.host) this.#stored.set(key, value);
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
    if (this.#pending) this.#pending.set(key, value);
    else this.#write(new Map([[key, value]]));
  }

  delete(key: string) {
    if (this.#pending) this.#pending.set(key, undefined);
    else this.#write(new Map([[key, undefined]]));
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
    } catch (error) {
      this.#pending = null;
      throw error;
    }
    this.#pending = null;
    this.#write(pending);
    return result;
  }

  /**
   * Writes `changes` to storage: each key once, and the host's record once for itself and every
   * inlined entry that changed. A new inlinable entry goes into the host's record while the
   * inlined entries fit; one that does not, and any already on its own, keeps a record of its own.
   */
  #write(changes: Map<string, unknown>) {
    const inlining = this.#inlining;
    let hostChanged = false;
    for (const [key, value] of changes) {
      if (inlining && (key === inlining.host || this.#inlinable(key))) this.#readHost();
      if (inlining && key === inlining.host) {
        hostChanged = true;
      } else if (this.#inlined.has(key)) {
        hostChanged = true;
        if (value === undefined) this.#inlined.delete(key);
      } else if (
        value !== undefined &&
        inlining &&
        this.#inlinable(key) &&
        this.#kv.get(key) === undefined &&
        this.#inlinedBytes + JSON.stringify(value).length <= inlining.maxBytes
      ) {
        this.#inlined.add(key);
        hostChanged = true;
      } else if (value === undefined) {
        this.#kv.delete(key);
      } else {
        this.#kv.put(key, value);
      }
      this.#stored.set(key, value);
    }
    if (inlining && hostChanged) this.#writeHost(inlining.host, inlining.maxBytes);
  }

  /**
   * The host's record: its entry, with every entry inlined in it. Inlined entries that grew past
   * `maxBytes` together (a connection gains its keys after it was inlined) move out, largest
   * first, each to a record of its own: the host's record never nears an entry's limit.
   */
  #writeHost(host: string, maxBytes: number) {
    const entry = this.#stored.get(host) as Record<string, unknown> | undefined;
    const sizes = [...this.#inlined].map((key) => {
      const value = this.#stored.get(key);
      return { key, value, bytes: JSON.stringify(value).length };
    });
    sizes.sort((a, b) => b.bytes - a.bytes);
    this.#inlinedBytes = sizes.reduce((bytes, { bytes: each }) => bytes + each, 0);
    for (const { key, value, bytes } of sizes) {
      if (this.#inlinedBytes <= maxBytes) break;
      this.#kv.put(key, value);
      this.#inlined.delete(key);
      this.#inlinedBytes -= bytes;
    }
    const inlined: Record<string, unknown> = {};
    for (const key of this.#inlined) inlined[key] = this.#stored.get(key);
    if (entry !== undefined) {
      this.#kv.put(host, this.#inlined.size > 0 ? { ...entry, [INLINED]: inlined } : entry);
      return;
    }
    // No host left to hold them: each goes back to a record of its own.
    for (const [key, value] of Object.entries(inlined)) this.#kv.put(key, value);
    this.#inlined.clear();
    this.#inlinedBytes = 0;
    this.#kv.delete(host);
  }

  /** Storage changed past the buffer (it was deleted, or entries were made some other way). */
  forget() {
    this.#stored.clear();
    this.#listed.clear();
    this.#inlined.clear();
    this.#inlinedBytes = 0;
    this.#hostRead = false;
  }
}
