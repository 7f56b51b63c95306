import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { eventually } from "../../../testing/eventually.ts"
import { apiWithKey, closeNow, serverLayer, workspaceWithKey } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// The copy-paste verifiers of docs/webhooks.md (docs/receivers/), each run as its own program against
// deliveries Herald really sent to a local receiver: before and after a secret rotation, a redelivery, a
// body with non-ASCII text. Each language runs where its tool is on PATH.

const receivers = fileURLToPath(new URL("../../../docs/receivers/", import.meta.url))

interface Captured {
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

const onPath = (command: string) =>
  (process.env["PATH"] ?? "").split(delimiter).some((directory) => directory !== "" && existsSync(join(directory, command)))

/** Each verifier as a command: `<command> '<Service-Signature>' [now] < body`, secrets in the environment. */
const languages: ReadonlyArray<{ readonly name: string; readonly missing: string | undefined; readonly command: () => ReadonlyArray<string> }> = [
  { name: "Node (verify.mjs)", missing: undefined, command: () => [process.execPath, join(receivers, "verify.mjs")] },
  {
    name: "Python (verify.py)",
    missing: onPath("python3") ? undefined : "python3 is not on PATH",
    command: () => ["python3", join(receivers, "verify.py")]
  },
  {
    name: "Go (verify.go)",
    missing: onPath("go") ? undefined : "go is not on PATH",
    command: () => {
      const binary = join(mkdtempSync(join(tmpdir(), "herald-verify-go-")), "verify")
      const built = spawnSync("go", ["build", "-o", binary, join(receivers, "verify.go")], { encoding: "utf8" })
      assert.strictEqual(built.status, 0, built.stderr)
      return [binary]
    }
  }
]

/** A local receiver that keeps each request's headers and raw bytes and answers 204. */
const receiver = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ readonly url: string; readonly received: Array<Captured>; readonly close: () => Promise<void> }>((resolve) => {
      const received: Array<Captured> = []
      const server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          received.push({ headers: request.headers, body: Buffer.concat(chunks) })
          response.writeHead(204).end()
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          received,
          close: () => closeNow(server)
        }))
    })
  ),
  (made) => Effect.promise(made.close)
)

const waitFor = <A>(check: () => A | undefined) => eventually("a delivery", check)

/** Real deliveries: a test event, a post event with non-ASCII text, a redelivery, and a test event after rotation. */
const deliveries = Effect.gen(function*() {
  const hook = yield* receiver
  const { key, workspace } = yield* workspaceWithKey()
  const send = yield* apiWithKey(key.key)
  const endpoint = (yield* send("POST", "/webhooks", { url: hook.url })).body.data
  const byDelivery = (id: string) => waitFor(() => hook.received.find((each) => each.headers["service-delivery"] === id))

  const tested = yield* send("POST", `/webhooks/${endpoint.id}/test`)
  assert.strictEqual(tested.status, 200, tested.text)
  const test = yield* byDelivery(tested.body.data.id)

  const sql = yield* SqlClient.SqlClient
  yield* Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data) VALUES (${randomUUID()}, ${workspace.id},
    'post.created', ${JSON.stringify({ postId: "pst_verify", status: "draft", content: "Grüße aus 東京 😀 \"quoted\"\n" })}::jsonb)`)
  const post = yield* waitFor(() => hook.received.find((each) => each.headers["service-event"] === "post.created"))

  const again = yield* send("POST", `/webhooks/${endpoint.id}/deliveries/${tested.body.data.id}/redeliver`)
  assert.strictEqual(again.status, 200, again.text)
  const redelivered = yield* byDelivery(again.body.data.id)

  const rotated = (yield* send("POST", `/webhooks/${endpoint.id}/rotate-secret`)).body.data.secret
  const testedAfter = yield* send("POST", `/webhooks/${endpoint.id}/test`)
  const afterRotation = yield* byDelivery(testedAfter.body.data.id)
  return { oldSecret: endpoint.secret as string, newSecret: rotated as string, test, post, redelivered, afterRotation }
})

/** The known-answer vectors of docs/webhooks.md ("Test vectors"), as a receiver copying them reads them. */
const documentedVectors = () => {
  const doc = readFileSync(join(receivers, "../webhooks.md"), "utf8")
  const section = doc.slice(doc.indexOf("\n## Test vectors\n"), doc.indexOf("\n## A receiver\n"))
  return [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((match) => {
    const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(match[1]!)![1]!
    return { secret: field("secret"), timestamp: Number(field("timestamp")), body: field("body"), header: field("header") }
  })
}

const signatureOf = (delivery: Captured) => String(delivery.headers["service-signature"])
const timeOf = (delivery: Captured) => Number(/t=(\d+)/.exec(signatureOf(delivery))![1])
const eventOf = (delivery: Captured) => JSON.parse(delivery.body.toString("utf8"))

layer(serverLayer(), { excludeTestServices: true })("copy-paste webhook verifiers", (it) => {
  for (const language of languages) {
    const title = `${language.name} accepts Herald's deliveries and refuses changed, wrongly keyed and stale ones`
    it.effect(title, () =>
      Effect.scoped(Effect.gen(function*() {
        const { afterRotation, newSecret, oldSecret, post, redelivered, test } = yield* deliveries
        const [command, ...args] = language.command()
        const verify = (body: Buffer | string, header: string, secrets: ReadonlyArray<string>, now?: number) => {
          const ran = spawnSync(command!, [...args, header, ...(now === undefined ? [] : [String(now)])], {
            input: body,
            encoding: "utf8",
            env: { PATH: process.env["PATH"] ?? "", HERALD_WEBHOOK_SECRET: secrets[0] ?? "", HERALD_WEBHOOK_SECRET_OLD: secrets[1] ?? "" }
          })
          return ran.status === 0 ? ran.stdout.trim() : `${ran.status} ${ran.stderr.trim()}`
        }
        const accepts = (delivery: Captured, secrets: ReadonlyArray<string>, now?: number) => {
          const event = eventOf(delivery)
          assert.strictEqual(verify(delivery.body, signatureOf(delivery), secrets, now), `verified ${event.event} ${event.id}`)
        }
        const refuses = (reason: string, body: Buffer | string, header: string, secrets: ReadonlyArray<string>, now?: number) =>
          assert.match(verify(body, header, secrets, now), new RegExp(`^1 refused: ${reason}: `))

        // Genuine deliveries, by the real clock.
        accepts(test, [oldSecret])
        accepts(post, [oldSecret])
        accepts(redelivered, [oldSecret])
        assert.strictEqual(eventOf(redelivered).id, eventOf(test).id)
        // During a rotation both secrets are accepted; the old one alone no longer verifies what Herald signs.
        accepts(afterRotation, [newSecret, oldSecret])
        accepts(test, [newSecret, oldSecret])
        refuses("signature_mismatch", afterRotation.body, signatureOf(afterRotation), [oldSecret])
        // A header carrying several signatures and another scheme: any matching v1 is enough.
        const [timestamp, v1] = signatureOf(post).split(",")
        accepts({ ...post, headers: { "service-signature": `${timestamp},v0=abc,v1=${"0".repeat(64)},${v1}` } }, [oldSecret])

        // A body changed by one byte, or parsed and serialised again, and the wrong secret.
        const tampered = Buffer.from(post.body)
        tampered[tampered.length - 2] = tampered[tampered.length - 2]! ^ 1
        refuses("signature_mismatch", tampered, signatureOf(post), [oldSecret])
        refuses("signature_mismatch", JSON.stringify(eventOf(post), null, 2), signatureOf(post), [oldSecret])
        refuses("signature_mismatch", post.body, signatureOf(post), ["whsec_" + "x".repeat(43)])
        refuses("signature_mismatch", post.body, signatureOf(post), [oldSecret.slice("whsec_".length)])

        // Five minutes either way, at the second.
        const t = timeOf(post)
        accepts(post, [oldSecret], t + 300)
        refuses("timestamp_too_old", post.body, signatureOf(post), [oldSecret], t + 301)
        accepts(post, [oldSecret], t - 300)
        refuses("timestamp_in_future", post.body, signatureOf(post), [oldSecret], t - 301)

        // The documented vectors, at their own time.
        const vectors = documentedVectors()
        assert.strictEqual(vectors.length, 2)
        for (const vector of vectors) {
          const event = JSON.parse(vector.body)
          assert.strictEqual(verify(vector.body, vector.header, [vector.secret], vector.timestamp), `verified ${event.event} ${event.id}`)
        }

        refuses("missing_header", post.body, "", [oldSecret])
        refuses("malformed_header", post.body, v1!, [oldSecret])
        refuses("malformed_header", post.body, `t=${t},t=${t},${v1}`, [oldSecret])
      })), skipIf(language.missing))
  }
})
