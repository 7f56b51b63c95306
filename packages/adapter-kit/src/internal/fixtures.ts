import { MediaItem } from "../PostVersion.ts"

// Small real files for the conformance suite: a 1x1 JPEG and the start of an MP4 (its `ftyp` box). The
// simulators check what they are sent, not how it decodes.
export const jpeg = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=",
  "base64"
)

export const mp4 = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from("ftypisom"),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from("isomiso2"),
  Buffer.alloc(2048, 0)
])

export const photo = (baseUrl: string, index: number, size = { width: 1080, height: 1080 }) =>
  new MediaItem({
    id: `med_photo${index}`,
    kind: "image",
    mimeType: "image/jpeg",
    url: `${baseUrl}/media/photo${index}.jpg`,
    bytes: jpeg.length,
    width: size.width,
    height: size.height,
    durationMs: null,
    alt: null
  })

export const video = (baseUrl: string, index: number, durationMs = 15_000) =>
  new MediaItem({
    id: `med_video${index}`,
    kind: "video",
    mimeType: "video/mp4",
    url: `${baseUrl}/media/video${index}.mp4`,
    bytes: mp4.length,
    width: 1080,
    height: 1920,
    durationMs,
    alt: null
  })
