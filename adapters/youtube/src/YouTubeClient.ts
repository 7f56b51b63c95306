import { Effect, Option, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { type AdapterConfig, MediaDownload, NetworkClient, OAuth2, type PublishError } from "@herald/adapter-kit"
import {
  Channels,
  Comment,
  Comments,
  CommentThreads,
  PlaylistItems,
  Video,
  VideoStatuses
} from "./internal/answers.ts"
import * as Errors from "./internal/errors.ts"
import * as Request from "./internal/request.ts"
import { tokenUrl } from "./YouTubeConfig.ts"

// Typed calls to Google OAuth and the YouTube Data API v3, answers decoded with minimal, lenient schemas.
// Every call goes through the kit's `NetworkClient`; a refusal is read by the table in `internal/errors.ts`.
// https://developers.google.com/youtube/v3/docs

export type { Channel, Comment, CommentThread, VideoStatus } from "./internal/answers.ts"

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const api = `${config.apiBaseUrl}/youtube/v3`
    const upload = `${config.apiBaseUrl}/upload/youtube/v3`
    const bearer = (accessToken: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(accessToken))

    const youtube = NetworkClient.fromHttp(client, Errors.client)
    const { execute, send } = youtube

    const token = (grant: OAuth2.Grant) =>
      send(
        OAuth2.tokenRequest({
          endpoint: tokenUrl(config),
          grant,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
        OAuth2.TokenAnswer,
        "read"
      )

    /**
     * The bytes of a media item, streamed into the upload so memory does not grow with the video (the kit's
     * `MediaDownload.download` holds the whole file); any answer other than the file is the kit's media table.
     */
    const media = (url: string) =>
      Effect.map(MediaDownload.open(youtube.http, Errors.client.network, url), (response) => response.stream)

    /**
     * Sends the bytes to a resumable session. If the answer is lost, the session is asked where it stands
     * (`Content-Range: bytes *\/{total}`): a 200/201 carries the finished video, a 308 means it is
     * incomplete and a new upload is safe. Only when even that fails is the outcome unknown.
     * https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol#Check_Upload_Status
     */
    const sendBytes = (sessionUrl: string, url: string, contentType: string, bytes: number) =>
      Effect.flatMap(media(url), (stream) =>
        send(
          HttpClientRequest.put(sessionUrl).pipe(HttpClientRequest.bodyStream(stream, { contentType, contentLength: bytes })),
          Video,
          "makesPost"
        ).pipe(
          Effect.catchIf(
            (error: PublishError.PublishError) => error.reason._tag === "OutcomeUnknown",
            (lost) =>
              youtube.http.execute(
                HttpClientRequest.put(sessionUrl).pipe(HttpClientRequest.setHeader("content-range", `bytes */${bytes}`))
              ).pipe(
                Effect.mapError(() => lost),
                Effect.flatMap((response) =>
                  response.status === 200 || response.status === 201
                    ? Effect.mapError(youtube.decode(response, Video, "makesPost"), () => lost)
                    : response.status === 308
                    ? Effect.fail(Errors.fromReason({ status: 503, reason: "upload_incomplete", message: "the upload stopped part way" }))
                    : Effect.fail(lost)
                )
              )
          )
        ))

    return {
      exchangeCode: (code: string, redirectUri: string, codeVerifier: string | undefined) =>
        token({ _tag: "AuthorizationCode", code, redirectUri, codeVerifier }),

      refresh: (refreshToken: Redacted.Redacted<string>) =>
        token({ _tag: "RefreshToken", refreshToken }),

      /** The channel of the signed-in account (1 unit); `None` when the Google account has none. */
      channel: (accessToken: Redacted.Redacted<string>, part: "snippet" | "contentDetails" | "status") =>
        Effect.map(
          send(
            HttpClientRequest.get(`${api}/channels`).pipe(bearer(accessToken), HttpClientRequest.setUrlParams({ part, mine: "true" })),
            Channels,
            "read"
          ),
          (answer) => Option.fromNullishOr(answer.items?.[0])
        ),

      /** Uploads the video at `url` in a resumable session; answers the new video's id. */
      uploadVideo: Effect.fnUntraced(function*(accessToken: Redacted.Redacted<string>, metadata: Request.VideoMetadata, video: {
        readonly url: string
        readonly mimeType: string
        readonly bytes: number
      }) {
        const session = yield* execute(
          HttpClientRequest.post(`${upload}/videos`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ uploadType: "resumable", part: "snippet,status" }),
            HttpClientRequest.setHeaders({
              "x-upload-content-type": video.mimeType,
              "x-upload-content-length": String(video.bytes)
            }),
            HttpClientRequest.bodyJsonUnsafe(metadata)
          ),
          "read"
        )
        const sessionUrl = session.headers["location"]
        if (sessionUrl === undefined) return yield* Errors.unexpected("the upload session (no Location)")
        const created = yield* sendBytes(sessionUrl, video.url, video.mimeType, video.bytes)
        return created.id
      }),

      setThumbnail: (accessToken: Redacted.Redacted<string>, videoId: string, image: {
        readonly url: string
        readonly mimeType: string
        readonly bytes: number
      }) =>
        Effect.flatMap(media(image.url), (stream) =>
          execute(
            HttpClientRequest.post(`${upload}/thumbnails/set`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParam("videoId", videoId),
              HttpClientRequest.bodyStream(stream, { contentType: image.mimeType, contentLength: image.bytes })
            ),
            "read"
          )),

      videoStatus: (accessToken: Redacted.Redacted<string>, videoId: string) =>
        Effect.map(
          send(
            HttpClientRequest.get(`${api}/videos`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParams({ part: "processingDetails,status", id: videoId })
            ),
            VideoStatuses,
            "read"
          ),
          (answer) => Option.fromNullishOr(answer.items?.[0])
        ),

      /** The newest uploads of a playlist (1 quota unit, where `search.list` costs 100). */
      playlistItems: (accessToken: Redacted.Redacted<string>, playlistId: string) =>
        Effect.map(
          send(
            HttpClientRequest.get(`${api}/playlistItems`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParams({ part: "snippet", playlistId, maxResults: "50" })
            ),
            PlaylistItems,
            "read"
          ),
          (answer) => (answer.items ?? []).map((item) => item.snippet)
        ),

      /**
       * One page of the comment threads on the channel and its videos, newest first, with the replies the
       * `replies` part carries (1 unit plus the parts' cost).
       * https://developers.google.com/youtube/v3/docs/commentThreads/list
       */
      commentThreads: (accessToken: Redacted.Redacted<string>, channelId: string, pageToken: string | undefined) =>
        Effect.map(
          send(
            HttpClientRequest.get(`${api}/commentThreads`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParams({
                part: "snippet,replies",
                allThreadsRelatedToChannelId: channelId,
                order: "time",
                textFormat: "plainText",
                maxResults: "100",
                ...(pageToken === undefined ? {} : { pageToken })
              })
            ),
            CommentThreads,
            "read"
          ),
          (answer) => ({ threads: answer.items ?? [], nextPageToken: answer.nextPageToken })
        ),

      /**
       * The first 100 replies to a top-level comment (YouTube has replies to top-level comments only).
       * https://developers.google.com/youtube/v3/docs/comments/list
       */
      replies: (accessToken: Redacted.Redacted<string>, parentId: string) =>
        Effect.map(
          send(
            HttpClientRequest.get(`${api}/comments`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParams({ part: "snippet", parentId, textFormat: "plainText", maxResults: "100" })
            ),
            Comments,
            "read"
          ),
          (answer) => answer.items ?? []
        ),

      /**
       * Replies to a top-level comment (50 units, scope `youtube.force-ssl`). A lost answer may have left the
       * reply there: it is not resent blindly.
       * https://developers.google.com/youtube/v3/docs/comments/insert
       */
      reply: (accessToken: Redacted.Redacted<string>, parentId: string, text: string) =>
        send(
          HttpClientRequest.post(`${api}/comments`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParam("part", "snippet"),
            HttpClientRequest.bodyJsonUnsafe(Request.replyBody(parentId, text))
          ),
          Comment,
          "makesPost"
        )
    }
  })

export type YouTubeClient = Effect.Success<ReturnType<typeof make>>
