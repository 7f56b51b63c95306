import { Effect, type FileSystem, type Path } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { Adapter } from "@herald/adapter-kit"
import type { Unreadable } from "./mediaProbe.ts"
import { type FittedJson, fittedExtension } from "./mediaRows.ts"
import { removeAll } from "./mediaTemp.ts"
import type { Fitted } from "./photo.ts"

/** Every photo byte limit of the installed networks' forms, largest first, each once. */
export const photoByteLimits = (adapters: ReadonlyArray<Adapter.Adapter>): ReadonlyArray<number> =>
  [
    ...new Set(adapters.flatMap((adapter) =>
      Object.values(adapter.limits.forms).flatMap((form) =>
        form.media.maxPhotoBytes === undefined ? [] : [form.media.maxPhotoBytes]
      )
    ))
  ].sort((first, second) => second - first)

/**
 * The copies of the converted photo at `converted` (`bytes` long) for each limit it breaks, written beside
 * it in `folder` as `<id>.fit<limit>.jpg`, largest limit first. A copy made for a larger limit that is small
 * enough for a smaller one serves both, so it is not made twice. A limit no copy can meet gets none: the
 * validator then reports the photo as too large for that network. On failure nothing written stays.
 */
export const makeFits = (
  fs: FileSystem.FileSystem,
  path: Path.Path,
  fit: (input: string, maxBytes: number) => Effect.Effect<Fitted | undefined, Unreadable>,
  options: {
    readonly folder: string
    readonly id: string
    readonly converted: string
    readonly bytes: number
    readonly limits: ReadonlyArray<number>
  }
): Effect.Effect<
  { readonly sources: Array<readonly [string, string]>; readonly fitted: Array<FittedJson> },
  Unreadable | PlatformError
> => {
  const sources: Array<readonly [string, string]> = []
  const fitted: Array<FittedJson> = []
  return Effect.gen(function*() {
    for (const maxBytes of options.limits) {
      if (options.bytes <= maxBytes) continue
      const reusable = fitted.find((copy) => copy.bytes <= maxBytes)
      if (reusable !== undefined) {
        fitted.push({ ...reusable, maxBytes })
        continue
      }
      const copy = yield* fit(options.converted, maxBytes)
      if (copy === undefined) continue
      const extension = fittedExtension(maxBytes)
      const target = path.join(options.folder, `${options.id}.${extension}`)
      sources.push([extension, target])
      yield* fs.writeFile(target, copy.jpeg)
      fitted.push({
        maxBytes,
        extension,
        bytes: copy.jpeg.byteLength,
        width: copy.width,
        height: copy.height,
        quality: copy.quality
      })
    }
    // Smallest limit first, as the media object lists them.
    return { sources, fitted: fitted.reverse() }
  }).pipe(Effect.onError(() => removeAll(fs, sources.map(([, source]) => source))))
}
