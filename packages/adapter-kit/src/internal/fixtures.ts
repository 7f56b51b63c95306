import { MediaItem } from "../PostVersion.ts"

// Small real files for the conformance suite: a 1x1 JPEG, and an MP4 of boxes only (`ftyp`, media data of
// zeros, and a movie header saying how long it is, which a simulator reads as its network would). The
// simulators check what they are sent, not how it decodes.
const jpeg = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=",
  "base64"
)

/** A box: its 32-bit size, its type, its content. */
const box = (type: string, content: Buffer) => {
  const header = Buffer.alloc(8)
  header.writeUInt32BE(content.length + 8)
  header.write(type, 4, "latin1")
  return Buffer.concat([header, content])
}

/** The suite's MP4 lasting `durationMs`: the same size whatever its length. */
export const mp4Lasting = (durationMs: number) => {
  // A version 0 movie header: its timescale (1,000 a second) at 12 bytes in, the duration at 16.
  const mvhd = Buffer.alloc(100)
  mvhd.writeUInt32BE(1000, 12)
  mvhd.writeUInt32BE(Math.round(durationMs), 16)
  return Buffer.concat([
    box("ftyp", Buffer.concat([Buffer.from("isom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2")])),
    box("mdat", Buffer.alloc(2048, 0)),
    box("moov", box("mvhd", mvhd))
  ])
}

const defaultDurationMs = 15_000

const mp4 = mp4Lasting(defaultDurationMs)

/** The length a suite video's address names (`/media/video1-360000ms.mp4`); the default without one. */
export const durationInPath = (path: string): number => {
  const named = /-(\d{1,9})ms\.mp4$/.exec(path)
  return named === null ? defaultDurationMs : Number(named[1])
}

/** The most bytes a suite photo's address may ask for (`/media/photo1-6000000b.jpg`): above every network's photo limit. */
const maxPaddedBytes = 64 * 1024 * 1024

/**
 * The suite's JPEG padded after its end to the size its address names (`/media/photo1-6000000b.jpg`, at most
 * `maxPaddedBytes`): a file over a network's size; the JPEG as it is without one.
 */
export const jpegInPath = (path: string): Buffer => {
  const named = /-(\d{1,9})b\.jpg$/.exec(path)
  const bytes = named === null ? 0 : Math.min(Number(named[1]), maxPaddedBytes)
  return bytes <= jpeg.length ? jpeg : Buffer.concat([jpeg, Buffer.alloc(bytes - jpeg.length)])
}

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

/** A suite video: its file, served by the harness, lasts `durationMs`, as its movie header says. */
/** A photo of `bytes` bytes (`jpegInPath`), for a file over a network's size. */
export const photoOfBytes = (baseUrl: string, index: number, bytes: number) =>
  new MediaItem({ ...photo(baseUrl, index), url: `${baseUrl}/media/photo${index}-${bytes}b.jpg`, bytes })

/** A photo whose file is gone from Herald's media server: its address answers 404. */
export const gonePhoto = (baseUrl: string, index: number) =>
  new MediaItem({ ...photo(baseUrl, index), url: `${baseUrl}/deleted-media/photo${index}.jpg` })

export const video = (baseUrl: string, index: number, durationMs = defaultDurationMs) =>
  new MediaItem({
    id: `med_video${index}`,
    kind: "video",
    mimeType: "video/mp4",
    url: `${baseUrl}/media/video${index}${durationMs === defaultDurationMs ? "" : `-${durationMs}ms`}.mp4`,
    bytes: mp4.length,
    width: 1080,
    height: 1920,
    durationMs,
    alt: null
  })
