import { randomBytes } from "node:crypto"
import { Schema } from "effect"
import type { SimulatorState } from "@herald/adapter-kit"
import { limits } from "../LinkedInLimits.ts"

// What the simulator remembers of images and videos between their upload steps: the addresses it handed
// out, the parts received with their ETags, and each video's processing status.
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api

/** The largest video the sandbox lays out parts for: the most Herald sends (`LinkedInLimits`). */
export const maxVideoBytes = limits.forms.post.media.maxVideoBytes ?? 500 * 1024 * 1024

export const InitializeImage = Schema.Struct({ initializeUploadRequest: Schema.Struct({ owner: Schema.String }) })

export const InitializeVideo = Schema.Struct({
  initializeUploadRequest: Schema.Struct({
    owner: Schema.String,
    fileSizeBytes: Schema.Number,
    uploadCaptions: Schema.optionalKey(Schema.Boolean),
    uploadThumbnail: Schema.optionalKey(Schema.Boolean)
  })
})

export const FinalizeVideo = Schema.Struct({
  finalizeUploadRequest: Schema.Struct({
    video: Schema.String,
    uploadToken: Schema.String,
    uploadedPartIds: Schema.Array(Schema.String)
  })
})

interface Image {
  readonly urn: string
  readonly accountId: string
  uploaded: boolean
}

interface Part {
  readonly firstByte: number
  readonly lastByte: number
  etag: string | undefined
}

type VideoStatus = "WAITING_UPLOAD" | "PROCESSING" | "AVAILABLE"

interface Video {
  readonly urn: string
  readonly accountId: string
  readonly uploadToken: string
  readonly parts: ReadonlyArray<Part>
  status: VideoStatus
  /** Status checks left before processing is done: the adapter sees PROCESSING at least once. */
  checksUntilAvailable: number
}

// An upload address names what it fills by key (records are saved and loaded as JSON, not shared objects).
type Target =
  | { readonly _tag: "Image"; readonly urn: string }
  | { readonly _tag: "VideoPart"; readonly urn: string; readonly index: number }

export type Received =
  | { readonly _tag: "Stored"; readonly status: number; readonly etag: string | undefined }
  | { readonly _tag: "Refused"; readonly status: number; readonly message: string }

// Plain code with the wall clock and random bytes, as the kit's SimulatorState: a simulator stands for a
// remote system.
const secret = () => randomBytes(12).toString("base64url")
const dayMillis = 24 * 60 * 60 * 1_000

export class Uploads {
  private readonly images: SimulatorState.Table<Image>
  private readonly videos: SimulatorState.Table<Video>
  private readonly targets: SimulatorState.Table<Target>
  private readonly state: SimulatorState.SimulatorState
  private readonly baseUrl: string
  private readonly partBytes: number

  // Kept with the simulator's state, so an upload started before a restart or in another process goes on.
  constructor(state: SimulatorState.SimulatorState, baseUrl: string, partBytes: number) {
    this.state = state
    this.images = state.table<Image>("images", { mutable: true })
    this.videos = state.table<Video>("videos", { mutable: true })
    this.targets = state.table<Target>("uploadTargets")
    this.baseUrl = baseUrl
    this.partBytes = partBytes
  }

  private uploadUrl(target: Target): string {
    const uploadId = secret()
    this.targets.set(uploadId, target)
    return `${this.baseUrl}/dms-uploads/${uploadId}`
  }

  private id(): string {
    return `D4E${this.state.id()}`
  }

  initializeImage(accountId: string) {
    const image: Image = { urn: `urn:li:image:${this.id()}`, accountId, uploaded: false }
    this.images.set(image.urn, image)
    return { uploadUrlExpiresAt: Date.now() + dayMillis, uploadUrl: this.uploadUrl({ _tag: "Image", urn: image.urn }), image: image.urn }
  }

  initializeVideo(accountId: string, fileSizeBytes: number) {
    const parts: Array<Part> = []
    for (let firstByte = 0; firstByte < fileSizeBytes; firstByte += this.partBytes) {
      parts.push({ firstByte, lastByte: Math.min(firstByte + this.partBytes, fileSizeBytes) - 1, etag: undefined })
    }
    const video: Video = {
      urn: `urn:li:video:${this.id()}`,
      accountId,
      uploadToken: secret(),
      parts,
      status: "WAITING_UPLOAD",
      checksUntilAvailable: 2
    }
    this.videos.set(video.urn, video)
    return {
      uploadUrlsExpireAt: Date.now() + dayMillis,
      video: video.urn,
      uploadInstructions: parts.map((part, index) => ({
        uploadUrl: this.uploadUrl({ _tag: "VideoPart", urn: video.urn, index }),
        firstByte: part.firstByte,
        lastByte: part.lastByte
      })),
      uploadToken: video.uploadToken,
      thumbnailUploadUrl: "",
      captionsUploadUrl: ""
    }
  }

  /** A PUT to an upload address. Images need the owner's token; video part addresses are signed. */
  receive(uploadId: string, byteLength: number, accountId: string | undefined): Received {
    const target = this.targets.get(uploadId)
    if (target === undefined) return { _tag: "Refused", status: 404, message: "Unknown upload address" }
    if (target._tag === "Image") {
      const image = this.images.get(target.urn)!
      if (accountId !== image.accountId) return { _tag: "Refused", status: 401, message: "Invalid access token" }
      if (byteLength === 0) return { _tag: "Refused", status: 400, message: "The upload is empty" }
      image.uploaded = true
      return { _tag: "Stored", status: 201, etag: undefined }
    }
    const part = this.videos.get(target.urn)!.parts[target.index]!
    const expected = part.lastByte - part.firstByte + 1
    if (byteLength !== expected) {
      return { _tag: "Refused", status: 400, message: `This part is ${expected} bytes; ${byteLength} were sent` }
    }
    part.etag = `/ambry-video/signedId/${secret()}`
    return { _tag: "Stored", status: 200, etag: part.etag }
  }

  /** Checks the parts' ETags and starts processing; answers what is wrong, if anything. */
  finalizeVideo(
    accountId: string,
    request: { readonly video: string; readonly uploadToken: string; readonly uploadedPartIds: ReadonlyArray<string> }
  ): string | undefined {
    const video = this.videos.get(request.video)
    if (video === undefined || video.accountId !== accountId) return `Video ${request.video} not found`
    if (video.uploadToken !== request.uploadToken) return "The uploadToken does not match the upload"
    const missing = video.parts.findIndex((part) => part.etag === undefined)
    if (missing >= 0) return `Part ${missing + 1} of ${video.parts.length} was not uploaded`
    if (video.parts.map((part) => part.etag).join("\n") !== request.uploadedPartIds.join("\n")) {
      return "uploadedPartIds must list every part's ETag in upload order"
    }
    video.status = "PROCESSING"
    return undefined
  }

  /** `GET /rest/videos/{urn}`; each check brings processing closer to AVAILABLE. */
  checkVideo(urn: string, accountId: string) {
    const video = this.videos.get(urn)
    if (video === undefined || video.accountId !== accountId) return undefined
    if (video.status === "PROCESSING" && --video.checksUntilAvailable <= 0) video.status = "AVAILABLE"
    return { id: video.urn, owner: `urn:li:person:${accountId}`, status: video.status }
  }

  /** Whether a post may show this media: uploaded (videos processed), owned, and no video in a multiImage. */
  usable(urn: string, accountId: string, inMultiImage: boolean): boolean {
    const image = this.images.get(urn)
    if (image !== undefined) return image.accountId === accountId && image.uploaded
    const video = this.videos.get(urn)
    return video !== undefined && !inMultiImage && video.accountId === accountId && video.status === "AVAILABLE"
  }
}
