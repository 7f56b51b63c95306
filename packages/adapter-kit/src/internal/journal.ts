// The records of a simulator's state, kept so that they can be saved and loaded: each record is one key
// of one named table, saved as JSON. A table notes the keys a request wrote (and, for tables whose values
// the simulators change in place, the keys it read); at the end of the request the noted keys whose JSON
// changed become the changes to save. Records other processes saved are loaded into the same tables.

/** One record written: its table, its key, and its JSON (`null` when it was deleted). */
export interface Change {
  readonly kind: string
  readonly key: string
  readonly json: string | null
}

/** A change as the store keeps it: which state instance saved it, and its place in the store's order. */
export interface Saved extends Change {
  readonly origin: string
  readonly version: number
}

export interface TableOptions<V> {
  /**
   * The simulator changes this table's values in place, so a key read may have been changed too: reads are
   * noted as well as writes. Off for tables of immutable records, which may then be read freely.
   */
  readonly mutable?: boolean | undefined
  /** Keeps indexes current when a key's value is set, locally or by a load. */
  readonly onSet?: ((key: string, value: V, previous: V | undefined) => void) | undefined
}

/** A map whose writes are noted for saving; the Map methods the simulators use, with the same meaning. */
export class Table<V> {
  readonly kind: string
  private readonly map = new Map<string, V>()
  private readonly noted = new Set<string>()
  private readonly saved = new Map<string, string | null>()
  private readonly versions = new Map<string, number>()
  options: TableOptions<V>

  constructor(kind: string, options: TableOptions<V> = {}) {
    this.kind = kind
    this.options = options
  }

  /** The records, to read without noting anything (immutable tables hand this out). */
  get view(): ReadonlyMap<string, V> {
    return this.map
  }

  get size(): number {
    return this.map.size
  }

  get(key: string): V | undefined {
    const value = this.map.get(key)
    if (this.options.mutable === true && value !== undefined) this.noted.add(key)
    return value
  }

  has(key: string): boolean {
    return this.map.has(key)
  }

  set(key: string, value: V): this {
    const previous = this.map.get(key)
    this.map.set(key, value)
    this.noted.add(key)
    this.options.onSet?.(key, value, previous)
    return this
  }

  delete(key: string): boolean {
    const had = this.map.delete(key)
    if (had) this.noted.add(key)
    return had
  }

  values(): IterableIterator<V> {
    if (this.options.mutable === true) for (const key of this.map.keys()) this.noted.add(key)
    return this.map.values()
  }

  entries(): IterableIterator<[string, V]> {
    if (this.options.mutable === true) for (const key of this.map.keys()) this.noted.add(key)
    return this.map.entries()
  }

  /** The noted keys whose JSON differs from what was last saved or loaded; forgets the notes. */
  takeChanges(into: Array<Change>): void {
    for (const key of this.noted) {
      const value = this.map.get(key)
      const json = value === undefined ? null : JSON.stringify(value)
      const before = this.saved.get(key)
      if (json === before || (json === null && before === undefined)) continue
      this.saved.set(key, json)
      into.push({ kind: this.kind, key, json })
    }
    this.noted.clear()
  }

  /** A record another state instance saved; an older version of a key than one already loaded is ignored. */
  load(change: Saved): void {
    if ((this.versions.get(change.key) ?? -1) >= change.version) return
    this.versions.set(change.key, change.version)
    this.saved.set(change.key, change.json)
    if (change.json === null) {
      this.map.delete(change.key)
      return
    }
    // eslint-disable-next-line no-restricted-properties -- the JSON is what this table saved from a value of its own type
    const value = JSON.parse(change.json) as V
    const previous = this.map.get(change.key)
    this.map.set(change.key, value)
    this.options.onSet?.(change.key, value, previous)
  }
}

/** Every table of one simulator's state. */
export class Journal {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables of every value type in one map (a table's options take its values, so no one type fits all); `table<V>` gives each back typed
  private readonly tables = new Map<string, Table<any>>()
  /** The highest store version loaded: the next load asks for what came after it. */
  version = 0

  table<V>(kind: string, options?: TableOptions<V>): Table<V> {
    const existing = this.tables.get(kind) as Table<V> | undefined
    if (existing !== undefined) {
      if (options !== undefined) existing.options = options
      return existing
    }
    const table = new Table<V>(kind, options)
    this.tables.set(kind, table)
    return table
  }

  takeChanges(): Array<Change> {
    const changes: Array<Change> = []
    for (const table of this.tables.values()) table.takeChanges(changes)
    return changes
  }

  /** Loads what other state instances saved (this instance's own changes are already in memory). */
  load(saved: ReadonlyArray<Saved>, origin: string): void {
    for (const change of saved) {
      if (change.version > this.version) this.version = change.version
      if (change.origin === origin) continue
      this.table(change.kind).load(change)
    }
  }
}
