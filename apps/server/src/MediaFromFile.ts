import { Effect, FileSystem, Path } from "effect"
import { ApiError, MediaApi } from "@herald/api"
import { Media, Workspaces } from "@herald/core"
import { PublicUrl } from "./PublicUrl.ts"

// `herald media upload FILE`: a file on the machine, uploaded as `POST /api/v1/media` uploads a body (the
// same checks, conversion, fitted copies and alt text), for the operator who has no API key at hand. Run by
// the admin socket of the server holding the data folder, or by a brief local server: either way on this
// machine, so the file is read where it lies.

/** The type an upload declares, from the file's extension; the core checks the bytes against it. */
const typeOf: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime"
}

export interface Input {
  readonly workspaceId: string
  /** An absolute path (the command resolves it from where it runs). */
  readonly path: string
  readonly alt?: string | undefined
}

/** Uploads the file at `input.path` to the workspace's media; fails in the API's error classes. */
export const upload = Effect.fn("MediaFromFile.upload")(function*(input: Input) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const media = yield* Media.Media
  const workspaces = yield* Workspaces.Workspaces
  const publicUrl = yield* PublicUrl
  yield* workspaces.get(input.workspaceId).pipe(
    Effect.catchTag("WorkspaceNotFound", (error) => Effect.fail(new ApiError.NotFound({ message: error.message })))
  )
  const contentType = typeOf[path.extname(input.path).toLowerCase()]
  if (contentType === undefined) {
    return yield* new ApiError.Invalid({
      message: `${path.basename(input.path)} is not a photo or video Herald takes: name it .jpg, .jpeg, .png, .webp, .mp4 or .mov`
    })
  }
  const info = yield* fs.stat(input.path).pipe(
    Effect.catchTag("PlatformError", () => Effect.fail(new ApiError.Invalid({ message: `${input.path} cannot be read` })))
  )
  if (info.type !== "File") return yield* new ApiError.Invalid({ message: `${input.path} is not a file` })
  const stored = yield* media.upload({
    workspaceId: input.workspaceId,
    contentType,
    contentLength: Number(info.size),
    body: fs.stream(input.path),
    alt: input.alt
  }).pipe(
    Effect.catchTags({
      MediaInvalid: (error) => Effect.fail(new ApiError.Invalid({ message: error.message })),
      MediaTooLarge: (error) => Effect.fail(new ApiError.TooLarge({ message: error.message })),
      PlatformError: Effect.die
    })
  )
  return MediaApi.toMediaObject(publicUrl, stored)
})
