/**
 * One process per data folder. PGlite keeps the database files open and
 * assumes it is their only writer, so a second Herald process opening the
 * same folder would corrupt it. The lock is a file, `<dataDir>/herald.lock`,
 * holding the owner's pid, so a lock left by a crashed process can be told
 * apart from a live one and taken over.
 *
 * @since 0.0.0
 */
import { DateTime, Effect, FileSystem, Option, Path, Schema } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { Scope } from "effect/Scope"

/** The lock file's name inside the data folder. */
export const fileName = "herald.lock"

/** What the lock file holds: which process owns the folder and how to reach it. */
export const LockContents = Schema.Struct({
  pid: Schema.Int,
  startedAt: Schema.String,
  adminSocket: Schema.optionalKey(Schema.String)
})
export type LockContents = typeof LockContents.Type

const LockJson = Schema.fromJsonString(LockContents)
const decodeLock = Schema.decodeUnknownEffect(LockJson)
const encodeLock = Schema.encodeEffect(LockJson)

/** The data folder is held by another live process. */
export class DataDirBusy extends Schema.TaggedError<DataDirBusy>()("DataDirBusy", {
  dataDir: Schema.String,
  holder: LockContents
}) {
  override get message(): string {
    const socket = this.holder.adminSocket === undefined ? "" : ` (admin socket ${this.holder.adminSocket})`
    return `The data folder ${this.dataDir} is in use by Herald process ${this.holder.pid}, ` +
      `started ${this.holder.startedAt}${socket}. Stop that process, or give this one another data folder ` +
      `(HERALD_DATA_DIR), or set DATABASE_URL to share a PostgreSQL server between processes.`
  }
}

/** A held lock. Released (the file removed) when the scope it was acquired in closes. */
export interface DataDirLock {
  readonly dataDir: string
  readonly path: string
  /** Records where this process's admin socket listens, for tools that find the process through the lock. */
  readonly setAdminSocket: (adminSocket: string | undefined) => Effect.Effect<void, PlatformError>
}

/** Whether a process with this pid exists. EPERM means it exists but belongs to another user. */
const isAlive = (pid: number): Effect.Effect<boolean> =>
  Effect.try({ try: () => process.kill(pid, 0), catch: (error) => error }).pipe(
    Effect.as(true),
    Effect.catch((error) => Effect.succeed((error as { readonly code?: unknown }).code === "EPERM"))
  )

/** The lock file's contents; `None` when it is missing or unreadable (which only a crash can leave). */
const readContents = (path: string): Effect.Effect<Option.Option<LockContents>, PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.map(Option.some),
      Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeedNone)
    )
    if (Option.isNone(text)) return Option.none()
    return yield* decodeLock(text.value).pipe(Effect.option)
  })

/**
 * Writes the file whole under a temporary name, then links it into place:
 * the link fails if the lock exists (like O_EXCL), and nobody can read a
 * half-written lock. Returns false when the lock already exists.
 */
const createExclusive = Effect.fnUntraced(function*(path: string, contents: LockContents) {
  const fs = yield* FileSystem.FileSystem
  const temporary = `${path}.${contents.pid}.tmp`
  yield* fs.writeFileString(temporary, yield* encodeLock(contents).pipe(Effect.orDie), { mode: 0o600 })
  return yield* fs.link(temporary, path).pipe(
    Effect.as(true),
    Effect.catchIf((error) => error.reason._tag === "AlreadyExists", () => Effect.succeed(false)),
    Effect.ensuring(fs.remove(temporary).pipe(Effect.ignore))
  )
})

/** Replaces the lock's contents in one rename, so readers see the old or the new file. */
const rewrite = Effect.fnUntraced(function*(path: string, contents: LockContents) {
  const fs = yield* FileSystem.FileSystem
  const temporary = `${path}.${contents.pid}.tmp`
  yield* fs.writeFileString(temporary, yield* encodeLock(contents).pipe(Effect.orDie), { mode: 0o600 })
  yield* fs.rename(temporary, path)
})

/**
 * The lock's contents when a live process holds `dataDir`, else `None`.
 * Reads only: a stale lock is left for `acquire` to take over.
 */
export const readLock = Effect.fn("DataDirLock.readLock")(function*(dataDir: string) {
  const path = yield* Path.Path
  const contents = yield* readContents(path.join(dataDir, fileName))
  if (Option.isNone(contents)) return contents
  return (yield* isAlive(contents.value.pid)) ? contents : Option.none<LockContents>()
})

/**
 * Takes the data folder for this process until the scope closes, creating
 * the folder if needed. Fails with `DataDirBusy` while a live process holds
 * it; a lock whose process is gone is taken over.
 */
export const acquire = Effect.fn("DataDirLock.acquire")(function*(
  dataDir: string
): Effect.fn.Return<DataDirLock, DataDirBusy | PlatformError, Scope | FileSystem.FileSystem | Path.Path> {
  const fs = yield* FileSystem.FileSystem
  const path = (yield* Path.Path).join(dataDir, fileName)
  // Owner-only: the folder holds the database, the admin socket and the generated secret key. A folder that was
  // there before (made by an operator, a container volume) keeps its own mode, and PGlite writes its files
  // readable and writable by anyone: a folder open to others is closed to them.
  yield* fs.makeDirectory(dataDir, { recursive: true, mode: 0o700 })
  const mode = (yield* fs.stat(dataDir)).mode & 0o777
  if ((mode & 0o077) !== 0) {
    yield* fs.chmod(dataDir, 0o700)
    yield* Effect.logWarning(
      `The data folder ${dataDir} was open to other users (mode ${mode.toString(8)}); it is now owner-only (700)`
    )
  }
  let contents: LockContents = { pid: process.pid, startedAt: DateTime.formatIso(yield* DateTime.now) }
  // A stale lock is removed and creation tried again; another process may win that race.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (yield* createExclusive(path, contents)) break
    const holder = yield* readContents(path)
    if (Option.isSome(holder) && (yield* isAlive(holder.value.pid))) {
      return yield* new DataDirBusy({ dataDir, holder: holder.value })
    }
    if (attempt === 2) {
      // Another process keeps taking the folder over first; whoever it is, it is busy.
      return yield* new DataDirBusy({ dataDir, holder: Option.getOrElse(holder, () => contents) })
    }
    yield* Effect.logInfo(
      Option.match(holder, {
        onNone: () => `Taking over the unreadable lock of ${dataDir}`,
        onSome: (lock) => `Taking over the lock of ${dataDir} from process ${lock.pid}, which is gone`
      })
    )
    yield* fs.remove(path).pipe(Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.void))
  }
  yield* Effect.addFinalizer(() =>
    // Remove the file only while it is still ours.
    readContents(path).pipe(
      Effect.flatMap((current) =>
        Option.isSome(current) && current.value.pid === process.pid ? fs.remove(path) : Effect.void
      ),
      Effect.ignore
    )
  )
  return {
    dataDir,
    path,
    setAdminSocket: (adminSocket) => {
      contents = withAdminSocket(contents, adminSocket)
      return rewrite(path, contents).pipe(Effect.provideService(FileSystem.FileSystem, fs))
    }
  }
})

const withAdminSocket = (contents: LockContents, adminSocket: string | undefined): LockContents => {
  const { adminSocket: _, ...rest } = contents
  return adminSocket === undefined ? rest : { ...rest, adminSocket }
}

/**
 * Records the admin socket in the lock this process holds on `dataDir`,
 * for code that has the folder but not the `DataDirLock` from `acquire`.
 * Does nothing when this process does not hold the folder.
 */
export const setAdminSocket = Effect.fn("DataDirLock.setAdminSocket")(function*(
  dataDir: string,
  adminSocket: string | undefined
) {
  const path = (yield* Path.Path).join(dataDir, fileName)
  const current = yield* readContents(path)
  if (Option.isNone(current) || current.value.pid !== process.pid) {
    return yield* Effect.logWarning(`This process does not hold ${dataDir}; its admin socket is not recorded`)
  }
  yield* rewrite(path, withAdminSocket(current.value, adminSocket))
})
