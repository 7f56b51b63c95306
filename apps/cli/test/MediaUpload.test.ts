import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Workspaces } from "@herald/core"
import { backends } from "@herald/db/testing"
import { AdminSocket, Main, Packages } from "@herald/server"
import { fastTuning, quiet, settings } from "../../server/test/harness.ts"
import { noisyPng, plainJpeg } from "../../server/test/photos.ts"
import { Admin } from "../src/Admin.ts"
import { testDataFolder } from "./dataFolder.ts"
import { herald } from "./run.ts"

// `herald media upload FILE --alt`: through a running server's admin socket (what the command uses while a
// server holds the data folder), and as a process that runs a brief local server itself.

const files = mkdtempSync(join(tmpdir(), "herald-cli-media-files-"))

/** A photo of coloured noise, whose JPEG stays above Bluesky's 2,000,000 bytes, written as a PNG file. */
const noisyPhoto = async () => {
  const file = join(files, "noise.png")
  writeFileSync(file, await noisyPng())
  return file
}

const dataDir = mkdtempSync(join(tmpdir(), "herald-cli-media-"))
const bluesky = Packages.all.filter((entry) => entry.network === "bluesky")
const server = Main.layerWith(settings({ dataDir }), backends()[0]!.layer, true, bluesky, fastTuning).pipe(Layer.provide(quiet))
const admin = Admin.layerRemote(AdminSocket.socketPathFor(dataDir))

layer(server, { excludeTestServices: true })("herald media upload through the running server", (it) => {
  it.effect("uploads a file with its alt text and a copy fitted for Bluesky; refuses what is not a photo or video, and an unknown workspace", () =>
    Effect.gen(function*() {
      const workspace = yield* Effect.orDie((yield* Workspaces.Workspaces).create({ name: "CLI media" }))
      const remote = yield* Admin
      const file = yield* Effect.promise(noisyPhoto)
      const media = yield* remote.uploadMedia({ workspaceId: workspace.id, path: file, alt: "Static on a screen" })
      assert.strictEqual(media.alt, "Static on a screen")
      assert.strictEqual(media.mimeType, "image/jpeg")
      assert.deepStrictEqual(media.fitted.map((copy) => copy.maxBytes), [2_000_000])
      assert.isAtMost(media.fitted[0]!.bytes, 2_000_000)

      const text = join(files, "notes.txt")
      writeFileSync(text, "not a photo")
      const refused = yield* Effect.flip(remote.uploadMedia({ workspaceId: workspace.id, path: text }))
      assert.strictEqual(refused.code, "invalid")
      assert.include(refused.message, "notes.txt is not a photo or video")
      const tooLong = yield* Effect.flip(remote.uploadMedia({ workspaceId: workspace.id, path: file, alt: "x".repeat(1_501) }))
      assert.deepStrictEqual([tooLong.code, tooLong.message], ["invalid", "alt is 1501 characters; the limit is 1500"])
      const nowhere = yield* Effect.flip(remote.uploadMedia({ workspaceId: "ws_missing", path: file }))
      assert.strictEqual(nowhere.code, "not_found")
    }).pipe(Effect.provide(admin)))
})

layer(Layer.empty)("the command", (it) => {
  it.effect("uploads a file and prints the media with its alt text, as JSON or in words; a missing file is invalid", () =>
    Effect.promise(async () => {
      const environment = { HERALD_DATA_DIR: await testDataFolder("herald-cli-media-run-") }
      const created = await herald(["workspace", "create", "--name", "Media", "--json"], environment)
      assert.strictEqual(created.code, 0, created.stderr)
      const workspaceId = JSON.parse(created.stdout).id
      const photo = join(files, "small.jpg")
      writeFileSync(photo, await plainJpeg(300, 200))
      const uploaded = await herald(["media", "upload", photo, "--workspace", workspaceId, "--alt", "A green rectangle", "--json"], environment)
      assert.strictEqual(uploaded.code, 0, uploaded.stdout + uploaded.stderr)
      assert.deepInclude(JSON.parse(uploaded.stdout), { kind: "image", width: 300, height: 200, alt: "A green rectangle", fitted: [] })
      const words = await herald(["media", "upload", photo, "--workspace", workspaceId], environment)
      assert.strictEqual(words.code, 0, words.stderr)
      assert.match(words.stdout, /^Uploaded med_\w+ \(image, \d+ bytes\): /)
      const missing = await herald(["media", "upload", join(files, "gone.jpg"), "--workspace", workspaceId, "--json"], environment)
      assert.notStrictEqual(missing.code, 0)
      assert.strictEqual(JSON.parse(missing.stdout || missing.stderr).error.code, "invalid")
    }))
})
