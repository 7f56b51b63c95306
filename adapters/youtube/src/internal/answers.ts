import { Schema } from "effect"

// Google's answers as the client decodes them (`YouTubeClient` re-exports the types): minimal, lenient schemas
// of what Herald reads. Its token answer is RFC 6749's (`OAuth2.TokenAnswer`): a refresh token only with
// `access_type=offline`, and Google does not rotate it, so a refresh answer has none.

export const Channels = Schema.Struct({
  items: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.String,
    snippet: Schema.optionalKey(Schema.Struct({
      title: Schema.optionalKey(Schema.String),
      customUrl: Schema.optionalKey(Schema.String),
      thumbnails: Schema.optionalKey(Schema.Struct({ default: Schema.optionalKey(Schema.Struct({ url: Schema.String })) }))
    })),
    contentDetails: Schema.optionalKey(Schema.Struct({
      relatedPlaylists: Schema.Struct({ uploads: Schema.optionalKey(Schema.String) })
    })),
    // `allowed`, `eligible`, `disallowed` or `longUploadsUnspecified`; kept a string, as new values may come.
    status: Schema.optionalKey(Schema.Struct({ longUploadsStatus: Schema.optionalKey(Schema.String) }))
  })))
})
export type Channel = NonNullable<typeof Channels.Type["items"]>[number]

export const Video = Schema.Struct({ id: Schema.String })

export const VideoStatuses = Schema.Struct({
  items: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.String,
    status: Schema.optionalKey(Schema.Struct({
      uploadStatus: Schema.optionalKey(Schema.String),
      failureReason: Schema.optionalKey(Schema.String),
      rejectionReason: Schema.optionalKey(Schema.String)
    })),
    processingDetails: Schema.optionalKey(Schema.Struct({ processingStatus: Schema.optionalKey(Schema.String) }))
  })))
})
export type VideoStatus = NonNullable<typeof VideoStatuses.Type["items"]>[number]

export const PlaylistItems = Schema.Struct({
  items: Schema.optionalKey(Schema.Array(Schema.Struct({
    snippet: Schema.Struct({
      title: Schema.String,
      description: Schema.String,
      resourceId: Schema.Struct({ videoId: Schema.String })
    })
  })))
})

/**
 * A comment as the Data API shows it. It carries no video id (its thread does) and `textOriginal` only for
 * its own author, so the text read is `textDisplay`, asked for as plain text.
 * https://developers.google.com/youtube/v3/docs/comments#resource
 */
export const Comment = Schema.Struct({
  id: Schema.String,
  snippet: Schema.Struct({
    authorDisplayName: Schema.optionalKey(Schema.String),
    authorChannelId: Schema.optionalKey(Schema.Struct({ value: Schema.String })),
    textDisplay: Schema.optionalKey(Schema.String),
    textOriginal: Schema.optionalKey(Schema.String),
    parentId: Schema.optionalKey(Schema.String),
    publishedAt: Schema.String
  })
})
export type Comment = typeof Comment.Type

/**
 * A top-level comment with some of its replies: `replies.comments` holds a limited number of them, fewer
 * than `totalReplyCount` on a busy thread, and `comments.list?parentId=` has the rest. Threads about the
 * channel itself rather than a video have no `videoId`.
 * https://developers.google.com/youtube/v3/docs/commentThreads#resource
 */
export const CommentThreads = Schema.Struct({
  nextPageToken: Schema.optionalKey(Schema.String),
  items: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.String,
    snippet: Schema.Struct({
      videoId: Schema.optionalKey(Schema.String),
      topLevelComment: Comment,
      totalReplyCount: Schema.optionalKey(Schema.Number)
    }),
    replies: Schema.optionalKey(Schema.Struct({ comments: Schema.optionalKey(Schema.Array(Comment)) }))
  })))
})
export type CommentThread = NonNullable<typeof CommentThreads.Type["items"]>[number]

export const Comments = Schema.Struct({ items: Schema.optionalKey(Schema.Array(Comment)) })
