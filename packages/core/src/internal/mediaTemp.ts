import { Clock, Duration, Effect, type FileSystem, Option, type Path } from "effect"

/** Removes files, ignoring any already gone and any failure: for clean-up after an upload that failed. */
export const removeAll = (fs: FileSystem.FileSystem, paths: ReadonlyArray<string>) =>
  Effect.ignore(Effect.forEach(paths, (file) => fs.remove(file, { force: true }), { discard: true }))

// A temporary file untouched for this long belongs to an upload whose process died (uploads in progress
// write to theirs continuously); other processes may share the data folder, so younger ones are left alone.
const abandonedAfter = Duration.hours(1)

/** Removes the temporary files of uploads abandoned by a process that died; run at start. */
export const sweepAbandoned = (fs: FileSystem.FileSystem, path: Path.Path, tmpFolder: string) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    for (const name of yield* fs.readDirectory(tmpFolder)) {
      const file = path.join(tmpFolder, name)
      const info = yield* fs.stat(file)
      const modified = Option.getOrElse(Option.map(info.mtime, (date) => date.getTime()), () => 0)
      if (now - modified > Duration.toMillis(abandonedAfter)) yield* fs.remove(file, { force: true })
    }
  }).pipe(Effect.catchCause((cause) => Effect.logWarning("Abandoned uploads could not be removed", cause)))
