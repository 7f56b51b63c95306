import { assert, describe, it } from "@effect/vitest"
import { SimulatorRules } from "@herald/adapter-kit"
import type { Schemas } from "@xdevplatform/xdk"
import * as Request from "../src/internal/request.ts"
import { XRules } from "../src/index.ts"

// The bodies the adapter builds, held to the request types of X's official TypeScript SDK
// (@xdevplatform/xdk 0.6.6, generated from the OpenAPI document XRules cites): a field the adapter
// misnames, or one X's schema does not list, fails `pnpm typecheck` here. The SDK's types name fields in
// camelCase and it sends them snake_case, so the adapter's wire names are camelCased before comparing.

type Camel<Name extends string> = Name extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : Name

/** A body as the SDK's types spell it: keys camelCased, literal strings widened (the schema's enums are checked by XRules). */
type AsSdk<T> = T extends string ? string
  : T extends ReadonlyArray<infer Item> ? ReadonlyArray<AsSdk<Item>>
  : T extends object ? { [Key in keyof T as Key extends string ? Camel<Key> : Key]: AsSdk<T[Key]> }
  : T

type Widened<T> = T extends string ? string
  : T extends ReadonlyArray<infer Item> ? ReadonlyArray<Widened<Item>>
  : T extends object ? { [Key in keyof T]: Widened<T[Key]> }
  : T

type RequiredKeys<T> = { [Key in keyof T]-?: object extends Pick<T, Key> ? never : Key }[keyof T]

/**
 * Whether every field of `Body` is one `Sdk` lists, recursively, with a value it takes, and every field `Sdk`
 * requires is there.
 */
type Within<Body, Sdk> = [Body] extends [ReadonlyArray<infer Item>] ? [Sdk] extends [ReadonlyArray<infer Listed>] ? Within<Item, Listed> : false
  : [Body] extends [object] ? [Sdk] extends [object] ? [Exclude<keyof Body, keyof Sdk> | Exclude<RequiredKeys<Sdk>, keyof Body>] extends [never]
        ? false extends { [Key in keyof Body]-?: Key extends keyof Sdk ? Within<Exclude<Body[Key], undefined>, Exclude<Sdk[Key], undefined>> : false }[keyof Body]
          ? false
          : true
      : false
    : false
  : [Body] extends [Sdk] ? true
  : false

type Fits<Body, Sdk> = Within<AsSdk<Body>, Widened<Sdk>>

const checks: {
  readonly tweet: Fits<Request.TweetBody, Schemas.CreatePostsRequest>
  readonly upload: Fits<ReturnType<typeof Request.uploadBody>, Schemas.MediaUploadRequest>
  readonly initialize: Fits<ReturnType<typeof Request.initializeBody>, Schemas.InitializeMediaUploadRequest>
  readonly altText: Fits<ReturnType<typeof Request.altTextBody>, Schemas.CreateMediaMetadataRequest>
  readonly message: Fits<ReturnType<typeof Request.messageBody>, Schemas.CreateDirectMessagesByConversationIdRequest>
} = { tweet: true, upload: true, initialize: true, altText: true, message: true }

// The check itself: a misnamed field, an unlisted one, or a missing required one is not within the SDK's type.
const misnamed: [
  Fits<{ text: string; reply: { in_reply_to_status_id: string } }, Schemas.CreatePostsRequest>,
  Fits<{ media: string; media_category: "tweet_image"; media_type: string }, Schemas.MediaUploadRequest>,
  Fits<{ media: string }, Schemas.MediaUploadRequest>,
  Fits<{ text: number }, Schemas.CreatePostsRequest>
] = [false, false, false, false]

describe("x request bodies", () => {
  it("fit the SDK's request types", () => {
    assert.deepStrictEqual(Object.values(checks), [true, true, true, true, true])
    assert.deepStrictEqual(misnamed, [false, false, false, false])
  })

  it("keep every rule of the simulator's table", () => {
    const bodies: ReadonlyArray<readonly [SimulatorRules.Call<unknown>, unknown]> = [
      [XRules.createPost, Request.tweetBody("hello", ["1234567890"], "9876543210")],
      [XRules.createPost, Request.tweetBody("", ["1234567890"])],
      [XRules.uploadMedia, Request.uploadBody(new Uint8Array([255, 216, 255]), "tweet_image")],
      [XRules.initializeUpload, Request.initializeBody(10_000_000, "video/mp4", "tweet_video")],
      [XRules.mediaMetadata, Request.altTextBody("1234567890", "a cat on a mat")],
      [XRules.sendMessage, Request.messageBody("Hi Dan")]
    ]
    for (const [call, body] of bodies) assert.isUndefined(SimulatorRules.refusal(call, body), call.call)
  })
})
