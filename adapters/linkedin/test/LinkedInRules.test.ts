import { assert } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { LinkedInAdapter, LinkedInRules, LinkedInSimulator } from "../src/index.ts"

// Every rule of LinkedIn's table, broken on its own by a request sent to the simulator over HTTP, is refused
// with LinkedIn's answer (status, code, message); a request that keeps them all is accepted. Each rule has
// its breaking example here, found by the rule's words: a rule added without one, or one whose check is
// removed, fails.

type Body = Readonly<Record<string, unknown>>

const withField = SimulatorRules.withField

const versioned = { "linkedin-version": "202603", "x-restli-protocol-version": "2.0.0" }

interface Answer {
  readonly status: number
  readonly body: { readonly status?: number; readonly code?: string; readonly serviceErrorCode?: number; readonly message?: string }
}

const send = (
  ctx: AdapterSuite.Context,
  token: Redacted.Redacted<string>,
  path: string,
  body: unknown,
  headers: Record<string, string | undefined> = versioned
) =>
  Effect.promise(async (): Promise<Answer> => {
    const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
    const response = await fetch(`${ctx.baseUrl}/sandbox/linkedin${path}`, {
      method: "POST",
      headers: { ...sent, authorization: `Bearer ${Redacted.value(token)}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) }
  })

/** A call's path, a body that keeps its rules, and for each rule (by its words) a body that breaks only it. */
interface Case {
  readonly call: LinkedInRules.Call<LinkedInRules.Body>
  readonly path: string
  readonly valid: (member: string) => Body
  readonly breaking: Readonly<Record<string, (valid: Body) => Body>>
}

const post = (member: string): Body => ({
  author: member,
  commentary: `keeps every rule ${Date.now()} ${Math.random()}`,
  visibility: "PUBLIC",
  distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: "PUBLISHED",
  isReshareDisabledByAuthor: false
})

const images = (...ids: ReadonlyArray<string>) => ({ multiImage: { images: ids.map((id) => ({ id })) } })

const cases: ReadonlyArray<Case> = [
  {
    call: LinkedInRules.createPost,
    path: "/rest/posts",
    valid: post,
    breaking: {
      "`author` is a person or organization URN": (valid) => ({ ...valid, author: "ada_lovelace" }),
      "`author` is the member the token is for": (valid) => ({ ...valid, author: "urn:li:person:someone-else" }),
      "`commentary` is a string (little text)": (valid) => ({ ...valid, commentary: 42 }),
      "`commentary` holds at most 3,000 characters": (valid) => ({ ...valid, commentary: "a".repeat(3_001) }),
      "`visibility` is one of PUBLIC, CONNECTIONS, LOGGED_IN": (valid) => ({ ...valid, visibility: "PRIVATE" }),
      "`distribution.feedDistribution` is MAIN_FEED or NONE": (valid) => withField(valid, "distribution.feedDistribution", "EVERYWHERE"),
      "`lifecycleState` is PUBLISHED (the only state a post is created in)": (valid) => ({ ...valid, lifecycleState: "DRAFT" }),
      "`isReshareDisabledByAuthor` is a boolean": (valid) => ({ ...valid, isReshareDisabledByAuthor: "no" }),
      "`content` holds exactly one of media, multiImage, article, poll, celebration": (valid) => ({
        ...valid,
        content: { media: { id: "urn:li:image:1" }, ...images("urn:li:image:2", "urn:li:image:3") }
      }),
      "`content.media.id` is an image, video or document URN": (valid) => ({ ...valid, content: { media: { id: "urn:li:share:1" } } }),
      "`content.multiImage.images` lists 2 to 20 images": (valid) => ({ ...valid, content: images("urn:li:image:1") }),
      "`content.multiImage.images` names each image by its image URN (`id`)": (valid) => ({
        ...valid,
        content: images("urn:li:image:1", "urn:li:video:2")
      }),
      "each `altText` is a string of at most 4,086 characters": (valid) => ({
        ...valid,
        content: { media: { id: "urn:li:image:1", altText: "a".repeat(4_087) } }
      })
    }
  },
  {
    call: LinkedInRules.initializeImage,
    path: "/rest/images?action=initializeUpload",
    valid: (member) => ({ initializeUploadRequest: { owner: member } }),
    breaking: {
      "`initializeUploadRequest.owner` is a person or organization URN": () => ({ initializeUploadRequest: { owner: "me" } }),
      "`initializeUploadRequest.owner` is the member the token is for": () => ({
        initializeUploadRequest: { owner: "urn:li:organization:2414183" }
      })
    }
  },
  {
    call: LinkedInRules.initializeVideo,
    path: "/rest/videos?action=initializeUpload",
    valid: (member) => ({ initializeUploadRequest: { owner: member, fileSizeBytes: 2_500, uploadCaptions: false, uploadThumbnail: false } }),
    breaking: {
      "`initializeUploadRequest.owner` is a person or organization URN": (valid) => withField(valid, "initializeUploadRequest.owner", 7),
      "`initializeUploadRequest.owner` is the member the token is for": (valid) =>
        withField(valid, "initializeUploadRequest.owner", "urn:li:person:someone-else"),
      "`initializeUploadRequest.fileSizeBytes` is the file's size, a whole number of bytes above zero": (valid) =>
        withField(valid, "initializeUploadRequest.fileSizeBytes", 0),
      "`initializeUploadRequest.uploadCaptions` is a boolean": (valid) => withField(valid, "initializeUploadRequest.uploadCaptions", "no"),
      "`initializeUploadRequest.uploadThumbnail` is a boolean": (valid) => withField(valid, "initializeUploadRequest.uploadThumbnail", 1)
    }
  },
  {
    call: LinkedInRules.finalizeVideo,
    path: "/rest/videos?action=finalizeUpload",
    // Accepted only for a video whose parts went up: the test below uploads one.
    valid: () => ({ finalizeUploadRequest: { video: "urn:li:video:D4E1", uploadToken: "token", uploadedPartIds: ["etag"] } }),
    breaking: {
      "`finalizeUploadRequest.video` is the video URN initializeUpload gave": (valid) =>
        withField(valid, "finalizeUploadRequest.video", "urn:li:image:D4E1"),
      "`finalizeUploadRequest.uploadToken` is a string": (valid) => withField(valid, "finalizeUploadRequest.uploadToken", undefined),
      "`finalizeUploadRequest.uploadedPartIds` lists the parts' ETags as strings": (valid) =>
        withField(valid, "finalizeUploadRequest.uploadedPartIds", [1, 2])
    }
  },
  {
    call: LinkedInRules.createComment,
    path: `/rest/socialActions/${encodeURIComponent("urn:li:share:1")}/comments`,
    valid: (member) => ({ actor: member, object: "urn:li:share:1", message: { text: "Thanks!" } }),
    breaking: {
      "`actor` is a person or organization URN": (valid) => ({ ...valid, actor: "" }),
      "`actor` is the member the token is for": (valid) => ({ ...valid, actor: "urn:li:person:someone-else" }),
      "`object` is the URN of the post commented on (share or ugcPost)": (valid) => ({ ...valid, object: "urn:li:image:1" }),
      "`message.text` is a string (little text)": (valid) => ({ ...valid, message: {} }),
      "`parentComment` is a comment URN": (valid) => ({ ...valid, parentComment: "urn:li:share:1" })
    }
  }
]

/** Header values breaking one rule of every `/rest` call each (undefined: the header is not sent). */
const breakingHeaders: Readonly<Record<string, Record<string, string | undefined>>> = {
  "`LinkedIn-Version: YYYYMM` is sent": { ...versioned, "linkedin-version": undefined },
  "`LinkedIn-Version` names a version LinkedIn serves: released, and before its sunset a year on": {
    ...versioned,
    "linkedin-version": "202411"
  },
  "`X-Restli-Protocol-Version: 2.0.0` is sent": { ...versioned, "x-restli-protocol-version": undefined }
}

/** Asserts that LinkedIn's answer is the refusal of `rule` for `input`, which breaks that rule alone. */
const assertRefused = <Input>(call: LinkedInRules.Call<Input>, rule: LinkedInRules.Rule<Input>, input: Input, answer: Answer) => {
  const broken = call.rules.filter((candidate) => candidate.check(input) !== undefined)
  assert.deepStrictEqual(broken.map((candidate) => candidate.rule), [rule.rule], `the example breaks only "${rule.rule}"`)
  const message = rule.check(input)
  assert.isDefined(message)
  assert.strictEqual(answer.status, rule.answer.status, rule.rule)
  assert.deepInclude(answer.body, {
    status: rule.answer.status,
    code: rule.answer.code,
    message: message!,
    ...(rule.answer.serviceErrorCode === undefined ? {} : { serviceErrorCode: rule.answer.serviceErrorCode })
  }, rule.rule)
}

AdapterSuite.withHarness({ makeAdapter: LinkedInAdapter.make, makeSimulator: LinkedInSimulator.simulator })("LinkedIn's rules", (it) => {
  const harness = Effect.service(AdapterSuite.Harness)

  it.effect("every call's rule has a breaking example, and every example a rule", () =>
    Effect.sync(() => {
      const examples = [
        { call: LinkedInRules.headers.call, rules: LinkedInRules.headers.rules, names: Object.keys(breakingHeaders) },
        ...cases.map((entry) => ({ call: entry.call.call, rules: entry.call.rules, names: Object.keys(entry.breaking) }))
      ]
      assert.deepStrictEqual(examples.map((entry) => entry.call), LinkedInRules.rules.map((entry) => entry.call))
      for (const entry of examples) {
        assert.deepStrictEqual(entry.names, entry.rules.map((rule) => rule.rule), entry.call)
      }
    }))

  it.effect("refuses a /rest call whose headers break a rule, with LinkedIn's answer", () =>
    Effect.gen(function*() {
      const ctx = yield* harness
      const { account } = yield* AdapterSuite.connect(ctx)
      const member = `urn:li:person:${account.networkAccountId}`
      for (const rule of LinkedInRules.headers.rules) {
        const headers = breakingHeaders[rule.rule]!
        const input = { version: headers["linkedin-version"], protocol: headers["x-restli-protocol-version"], now: Date.now() }
        const answer = yield* send(ctx, account.accessToken, "/rest/posts", post(member), headers)
        assertRefused(LinkedInRules.headers, rule, input, answer)
      }
    }))

  it.effect("refuses a body that breaks a rule, with LinkedIn's answer, and stores nothing", () =>
    Effect.gen(function*() {
      const ctx = yield* harness
      const { account } = yield* AdapterSuite.connect(ctx)
      const member = `urn:li:person:${account.networkAccountId}`
      for (const entry of cases) {
        for (const rule of entry.call.rules) {
          const body = entry.breaking[rule.rule]!(entry.valid(member))
          const answer = yield* send(ctx, account.accessToken, entry.path, body)
          assertRefused(entry.call, rule, { body, member }, answer)
        }
      }
      assert.strictEqual(ctx.simulator.state.postsOf(account.networkAccountId).length, 0)
    }))

  it.effect("a version is served from its month until the 15th of that month a year on", () =>
    Effect.sync(() => {
      const at = (date: string) => Date.parse(date)
      assert.isTrue(LinkedInRules.isActive("202603", at("2026-12-03T00:00:00Z")))
      assert.isTrue(LinkedInRules.isActive("202604", at("2027-04-14T23:59:59Z")))
      assert.isFalse(LinkedInRules.isActive("202604", at("2027-04-15T00:00:00Z")))
      assert.isFalse(LinkedInRules.isActive("202701", at("2026-12-03T00:00:00Z")), "a version still to come")
      assert.isFalse(LinkedInRules.isActive("2026-03", at("2026-12-03T00:00:00Z")))
    }))

  it.effect("accepts requests that keep every rule: a post, an image, a video's upload and a comment", () =>
    Effect.gen(function*() {
      const ctx = yield* harness
      const { account } = yield* AdapterSuite.connect(ctx)
      const member = `urn:li:person:${account.networkAccountId}`
      const byPath = (path: string) => cases.find((entry) => entry.path === path)!
      const created = yield* send(ctx, account.accessToken, "/rest/posts", post(member))
      assert.strictEqual(created.status, 201)
      const postUrn = [...ctx.simulator.state.posts.keys()].find((id) => ctx.simulator.state.posts.get(id)?.accountId === account.networkAccountId)!
      const image = yield* send(ctx, account.accessToken, "/rest/images?action=initializeUpload", byPath("/rest/images?action=initializeUpload").valid(member))
      assert.strictEqual(image.status, 200)
      const video = yield* send(ctx, account.accessToken, "/rest/videos?action=initializeUpload", byPath("/rest/videos?action=initializeUpload").valid(member))
      assert.strictEqual(video.status, 200)
      const value = (video.body as unknown as {
        value: { video: string; uploadToken: string; uploadInstructions: ReadonlyArray<{ uploadUrl: string; firstByte: number; lastByte: number }> }
      }).value
      const etags: Array<string> = []
      for (const part of value.uploadInstructions) {
        const put = yield* Effect.promise(() =>
          fetch(part.uploadUrl, { method: "PUT", body: new Uint8Array(part.lastByte - part.firstByte + 1) })
        )
        etags.push(put.headers.get("etag")!)
      }
      const finalized = yield* send(ctx, account.accessToken, "/rest/videos?action=finalizeUpload", {
        finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken, uploadedPartIds: etags }
      })
      assert.strictEqual(finalized.status, 200)
      const comment = yield* send(ctx, account.accessToken, `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`, {
        actor: member,
        object: postUrn,
        message: { text: "Thanks!" }
      })
      assert.strictEqual(comment.status, 201)
    }))
})
