import { call, filter, parts, type Query, videoParts } from "./rules.ts"

/** The rules of the list calls Herald reads with: channels, videos, playlist items, comment threads, comments. */

const list = (name: string, method: string, names: ReadonlyArray<string>, filters: ReadonlyArray<string>) =>
  call<Query>(`GET /youtube/v3/${name} (${name}.list)`, [...parts<Query>(method, names), filter<Query>(method, filters)])

export const listChannels = list("channels", "channels/list", [
  "auditDetails",
  "brandingSettings",
  "contentDetails",
  "contentOwnerDetails",
  "id",
  "localizations",
  "snippet",
  "statistics",
  "status",
  "topicDetails"
], ["categoryId", "forHandle", "forUsername", "id", "managedByMe", "mine"])

export const listVideos = list("videos", "videos/list", videoParts, ["chart", "id", "myRated"])

export const listPlaylistItems = list("playlistItems", "playlistItems/list", ["contentDetails", "id", "snippet", "status"], [
  "id",
  "playlistId"
])

export const listCommentThreads = list("commentThreads", "commentThreads/list", ["id", "replies", "snippet"], [
  "allThreadsRelatedToChannelId",
  "channelId",
  "id",
  "videoId"
])

export const listComments = list("comments", "comments/list", ["id", "snippet"], ["id", "parentId"])
