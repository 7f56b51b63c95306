import { SimulatorRules } from "@herald/adapter-kit"

/**
 * What LinkedIn refuses of the calls Herald makes, as the simulator holds it: one table, each rule with the
 * page that states it and LinkedIn's answer (`{ status, serviceErrorCode?, code?, message }`). Transcribed
 * from the Marketing API pages on learn.microsoft.com, read 2026-12-03 (the pages carry no date of their
 * own; their version selector showed the 2026 versions). The stored copies searched that day gave each
 * page's opening (headers, permissions, the start of the schemas); field rules past that are written from
 * the pages' schema tables. LinkedIn's words for a sunset version are those its API answers
 * (`{"status":426,"code":"NONEXISTENT_VERSION","message":"Requested version 20241101 is not active"}` for
 * `LinkedIn-Version: 202411`, quoted in PipedreamHQ/pipedream#18398 and n8n-io/n8n#14737); a field that
 * breaks a schema is answered as Rest.li validates it: 422, `ERROR :: /path :: what`.
 */

/** LinkedIn's answer to a broken rule, beside the message. */
export interface Answer {
  readonly status: number
  readonly code: string
  readonly serviceErrorCode?: number
}

/** A rule with LinkedIn's answer to a request that breaks it. */
export type Rule<Input> = SimulatorRules.Rule<Input> & { readonly answer: Answer }

export type Call<Input> = SimulatorRules.Call<Input, Rule<Input>>

const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call(name, rules)

const pages = "https://learn.microsoft.com/en-us/linkedin/marketing"
const versioning = `${pages}/versioning`
const postsApi = `${pages}/community-management/shares/posts-api`
const imagesApi = `${pages}/community-management/shares/images-api`
const videosApi = `${pages}/community-management/shares/videos-api`
const commentsApi = `${pages}/community-management/shares/comments-api`
const multiImageApi = `${pages}/community-management/shares/multiimage-post-api`

const unprocessable: Answer = { status: 422, code: "UNPROCESSABLE_ENTITY" }
const denied: Answer = { status: 403, code: "ACCESS_DENIED", serviceErrorCode: 100 }

/** A Rest.li validation message for the field at `path`. */
const invalid = (path: string, what: string) => `ERROR :: /${path} :: ${what}`

const ownerUrn = /^urn:li:(person|organization):[^:\s]+$/

/** A rule that the field at `path` is a member's or an organization's URN. */
const urnOf = (path: string, source: string): Rule<Body> => ({
  rule: `\`${path}\` is a person or organization URN`,
  source,
  answer: unprocessable,
  check: ({ body }) => {
    const value = SimulatorRules.at(body, path)
    return typeof value === "string" && ownerUrn.test(value) ? undefined : invalid(path, `${SimulatorRules.show(value)} is not a person or organization URN`)
  }
})

/** A rule that the URN at `path` is the member's own (`w_member_social` acts for the member only). */
const member = (path: string, resource: string, source: string): Rule<Body> => ({
  rule: `\`${path}\` is the member the token is for`,
  source,
  answer: denied,
  check: ({ body, member }) => {
    const value = SimulatorRules.at(body, path)
    return typeof value === "string" && ownerUrn.test(value) && value !== member
      ? `Not enough permissions to access: ${resource}`
      : undefined
  }
})

/** A rule on the field at `path` of the body, which may be absent unless `required`. */
const field = (
  path: string,
  rule: string,
  source: string,
  accepts: (value: unknown) => boolean,
  what: string,
  required = false
): Rule<Body> => ({
  rule: `\`${path}\` ${rule}`,
  source,
  answer: unprocessable,
  check: ({ body }) => {
    const value = SimulatorRules.at(body, path)
    if (value === undefined) return required ? invalid(path, "field is required but not found and has no default value") : undefined
    return accepts(value) ? undefined : invalid(path, `${SimulatorRules.show(value)} ${what}`)
  }
})

// ---- The headers of every `/rest` call ----

export interface Headers {
  /** `LinkedIn-Version`, when sent. */
  readonly version: string | undefined
  /** `X-Restli-Protocol-Version`, when sent. */
  readonly protocol: string | undefined
  /** The time of the call, in epoch milliseconds. */
  readonly now: number
}

/**
 * Whether LinkedIn serves a `YYYYMM` version at `now`: versions come out monthly and each is served "for a
 * minimum of one year", until the 15th of its month a year on (202504 ended on 2026-04-15, 202604 ends on
 * 2027-04-15: the migrations table). A version of a month still to come does not exist yet.
 */
export const isActive = (version: string, now: number): boolean => {
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version)
  if (match === null) return false
  const year = Number(match[1])
  const month = Number(match[2])
  if (month < 1 || month > 12) return false
  const released = Date.UTC(year, month - 1, 1)
  const sunset = Date.UTC(year + 1, month - 1, 15)
  return released <= now && now < sunset
}

export const headers = call<Headers>("every /rest call", [
  {
    rule: "`LinkedIn-Version: YYYYMM` is sent",
    source: `${versioning}#how-your-api-client-should-use-versioning`,
    answer: { status: 400, code: "VERSION_MISSING" },
    check: ({ version }) =>
      version === undefined || version === ""
        ? "A version must be present. Please specify a version by adding the LinkedIn-Version header."
        : undefined
  },
  {
    rule: "`LinkedIn-Version` names a version LinkedIn serves: released, and before its sunset a year on",
    source: `${versioning}#whats-changing`,
    answer: { status: 426, code: "NONEXISTENT_VERSION" },
    check: ({ now, version }) =>
      version === undefined || version === "" || isActive(version, now)
        ? undefined
        // LinkedIn names the version as a day: 202411 is "20241101".
        : `Requested version ${/^\d{6}$/.test(version) ? `${version}01` : version} is not active`
  },
  {
    rule: "`X-Restli-Protocol-Version: 2.0.0` is sent",
    source: postsApi,
    answer: { status: 400, code: "ILLEGAL_ARGUMENT" },
    check: ({ protocol }) => protocol === "2.0.0" ? undefined : "X-Restli-Protocol-Version 2.0.0 is required"
  }
])

// ---- Request bodies ----

/** A request's JSON body as sent, and the URN of the member whose token it carries. */
export interface Body {
  readonly body: unknown
  readonly member: string
}

const visibilities = ["PUBLIC", "CONNECTIONS", "LOGGED_IN"]
const contentKinds = ["media", "multiImage", "article", "poll", "celebration"]
const isString = (value: unknown) => typeof value === "string"
const isBoolean = (value: unknown) => typeof value === "boolean"
/** Whether a value is a URN of the kinds `pattern` matches. */
const isUrn = (pattern: RegExp) => (value: unknown) => typeof value === "string" && pattern.test(value)
const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value)
const altTexts = (body: unknown): ReadonlyArray<unknown> => {
  const images = SimulatorRules.at(body, "content.multiImage.images")
  return [SimulatorRules.at(body, "content.media.altText"), ...(Array.isArray(images) ? images.map((image) => SimulatorRules.at(image, "altText")) : [])]
}

export const createPost = call<Body>("POST /rest/posts", [
  urnOf("author", `${postsApi}#post-schema`),
  member("author", "partnerApiPostsExternal.CREATE", `${postsApi}#permissions`),
  field("commentary", "is a string (little text)", `${postsApi}#post-schema`, isString, "is not a string", true),
  {
    rule: "`commentary` holds at most 3,000 characters",
    source: `${postsApi}#post-schema`,
    answer: unprocessable,
    check: ({ body }) => {
      const commentary = SimulatorRules.at(body, "commentary")
      return typeof commentary === "string" && Array.from(commentary).length > 3_000
        ? invalid("commentary", "length of commentary exceeds 3000")
        : undefined
    }
  },
  field(
    "visibility",
    `is one of ${visibilities.join(", ")}`,
    `${postsApi}#post-schema`,
    (value) => typeof value === "string" && visibilities.includes(value),
    "is not an enum symbol",
    true
  ),
  field(
    "distribution.feedDistribution",
    "is MAIN_FEED or NONE",
    `${postsApi}#post-schema`,
    (value) => value === "MAIN_FEED" || value === "NONE",
    "is not an enum symbol",
    true
  ),
  field(
    "lifecycleState",
    "is PUBLISHED (the only state a post is created in)",
    `${postsApi}#post-schema`,
    (value) => value === "PUBLISHED",
    "is not a state a post can be created in",
    true
  ),
  field("isReshareDisabledByAuthor", "is a boolean", `${postsApi}#post-schema`, isBoolean, "is not a boolean"),
  field(
    "content",
    `holds exactly one of ${contentKinds.join(", ")}`,
    `${postsApi}#post-schema`,
    (value) => isObject(value) && Object.keys(value as object).length === 1 && contentKinds.includes(Object.keys(value as object)[0]!),
    "is not exactly one kind of content"
  ),
  field(
    "content.media.id",
    "is an image, video or document URN",
    `${postsApi}#post-schema`,
    isUrn(/^urn:li:(image|video|document):\S+$/),
    "is not an image, video or document URN",
    false
  ),
  field(
    "content.multiImage.images",
    "lists 2 to 20 images",
    multiImageApi,
    (value) => Array.isArray(value) && value.length >= 2 && value.length <= 20,
    "does not hold 2 to 20 images"
  ),
  field(
    "content.multiImage.images",
    "names each image by its image URN (`id`)",
    multiImageApi,
    (value) =>
      !Array.isArray(value) ||
      value.every((image) => typeof SimulatorRules.at(image, "id") === "string" && /^urn:li:image:\S+$/.test(SimulatorRules.at(image, "id") as string)),
    "has an entry that is not an image URN"
  ),
  {
    rule: "each `altText` is a string of at most 4,086 characters",
    source: `${imagesApi}#schema`,
    answer: unprocessable,
    check: ({ body }) =>
      altTexts(body).some((alt) => alt !== undefined && (typeof alt !== "string" || alt.length > 4_086))
        ? invalid("content", "altText is not a string of at most 4086 characters")
        : undefined
  }
])

export const initializeImage = call<Body>("POST /rest/images?action=initializeUpload", [
  urnOf("initializeUploadRequest.owner", imagesApi),
  member("initializeUploadRequest.owner", "images.ACTION-initializeUpload", imagesApi)
])

export const initializeVideo = call<Body>("POST /rest/videos?action=initializeUpload", [
  urnOf("initializeUploadRequest.owner", videosApi),
  member("initializeUploadRequest.owner", "videos.ACTION-initializeUpload", videosApi),
  field(
    "initializeUploadRequest.fileSizeBytes",
    "is the file's size, a whole number of bytes above zero",
    videosApi,
    (value) => typeof value === "number" && Number.isSafeInteger(value) && value > 0,
    "is not a whole number of bytes above zero",
    true
  ),
  field("initializeUploadRequest.uploadCaptions", "is a boolean", videosApi, isBoolean, "is not a boolean"),
  field("initializeUploadRequest.uploadThumbnail", "is a boolean", videosApi, isBoolean, "is not a boolean")
])

export const finalizeVideo = call<Body>("POST /rest/videos?action=finalizeUpload", [
  field("finalizeUploadRequest.video", "is the video URN initializeUpload gave", videosApi, isUrn(/^urn:li:video:\S+$/), "is not a video URN", true),
  field("finalizeUploadRequest.uploadToken", "is a string", videosApi, isString, "is not a string", true),
  field(
    "finalizeUploadRequest.uploadedPartIds",
    "lists the parts' ETags as strings",
    videosApi,
    (value) => Array.isArray(value) && value.every(isString),
    "is not an array of strings",
    true
  )
])

export const createComment = call<Body>("POST /rest/socialActions/{target}/comments", [
  urnOf("actor", commentsApi),
  member("actor", "socialActions.comments.CREATE", commentsApi),
  field("object", "is the URN of the post commented on (share or ugcPost)", commentsApi, isUrn(/^urn:li:(share|ugcPost):\S+$/), "is not a share or ugcPost URN", true),
  field("message.text", "is a string (little text)", commentsApi, isString, "is not a string", true),
  field("parentComment", "is a comment URN", commentsApi, isUrn(/^urn:li:comment:\(.+\)$/), "is not a comment URN")
])

/** Every call the simulator checks, in the order the README shows them. */
export const rules: SimulatorRules.Table = [headers, createPost, initializeImage, initializeVideo, finalizeVideo, createComment]
