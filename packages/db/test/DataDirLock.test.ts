import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { assert, layer } from "@effect/vitest"
import { Effect, FileSystem, Layer, Option, Schema } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as DataDirLock from "../src/DataDirLock.ts"

const tempDataDir = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  return yield* fs.makeTempDirectoryScoped({ prefix: "herald-lock-test-" })
})

const lockFile = (dataDir: string) => `${dataDir}/${DataDirLock.fileName}`

const readFile = Effect.fnUntraced(function*(dataDir: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(lockFile(dataDir))
  return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(DataDirLock.LockContents))(text)
})

const writeLock = Effect.fnUntraced(function*(dataDir: string, contents: DataDirLock.LockContents) {
  const fs = yield* FileSystem.FileSystem
  yield* fs.writeFileString(lockFile(dataDir), JSON.stringify(contents))
})

/** Another live process, for as long as the scope lasts. */
const otherProcess = Effect.acquireRelease(
  Effect.sync(() => spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })),
  (child) => Effect.sync(() => child.kill())
).pipe(Effect.map((child) => child.pid!))

const busy = <E extends { readonly _tag: string }>(error: E | DataDirLock.DataDirBusy): DataDirLock.DataDirBusy =>
  error instanceof DataDirLock.DataDirBusy ? error : assert.fail(`expected DataDirBusy, got ${error._tag}`)

/** The pid of a process that has exited. */
const deadPid = Effect.sync(() => spawnSync(process.execPath, ["-e", ""]).pid)

layer(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer), { excludeTestServices: true })("DataDirLock", (it) => {
  it.effect("holds the folder for this process until the scope closes", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dataDir = `${yield* tempDataDir}/nested/data`
      yield* Effect.scoped(Effect.gen(function*() {
        const lock = yield* DataDirLock.acquire(dataDir)
        assert.strictEqual(lock.path, lockFile(dataDir))
        const contents = yield* readFile(dataDir)
        assert.strictEqual(contents.pid, process.pid)
        assert.isFalse(Number.isNaN(Date.parse(contents.startedAt)))
        assert.deepStrictEqual(yield* DataDirLock.readLock(dataDir), Option.some(contents))
      }))
      assert.isFalse(yield* fs.exists(lockFile(dataDir)))
      assert.isTrue(Option.isNone(yield* DataDirLock.readLock(dataDir)))
    }))

  it.effect("makes a data folder that was there before, open to other users, owner-only (issue 28)", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dataDir = `${yield* tempDataDir}/shared`
      yield* fs.makeDirectory(dataDir)
      yield* fs.chmod(dataDir, 0o777)
      yield* Effect.scoped(DataDirLock.acquire(dataDir))
      assert.strictEqual(((yield* fs.stat(dataDir)).mode & 0o777).toString(8), "700")
    }))

  it.effect("a second acquire fails with DataDirBusy naming the holding process", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDataDir
      yield* DataDirLock.acquire(dataDir)
      const again = busy(yield* Effect.flip(Effect.scoped(DataDirLock.acquire(dataDir))))
      assert.strictEqual(again.holder.pid, process.pid)

      const elsewhere = yield* tempDataDir
      const pid = yield* otherProcess
      yield* writeLock(elsewhere, { pid, startedAt: "2024-01-01T00:00:00.000Z", adminSocket: "/run/herald.sock" })
      const refused = busy(yield* Effect.flip(Effect.scoped(DataDirLock.acquire(elsewhere))))
      assert.deepStrictEqual(refused.holder, { pid, startedAt: "2024-01-01T00:00:00.000Z", adminSocket: "/run/herald.sock" })
      assert.include(refused.message, elsewhere)
      assert.include(refused.message, `process ${pid}`)
      assert.include(refused.message, "/run/herald.sock")
      // The holder's lock is left as it was.
      assert.strictEqual((yield* readFile(elsewhere)).pid, pid)
    }))

  it.effect("takes over the lock of a process that is gone", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDataDir
      const pid = yield* deadPid
      yield* writeLock(dataDir, { pid, startedAt: "2024-01-01T00:00:00.000Z" })
      assert.isTrue(Option.isNone(yield* DataDirLock.readLock(dataDir)))
      yield* DataDirLock.acquire(dataDir)
      assert.strictEqual((yield* readFile(dataDir)).pid, process.pid)
    }))

  it.effect("takes over a lock file a crash left unreadable", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dataDir = yield* tempDataDir
      yield* fs.writeFileString(lockFile(dataDir), "{\"pid\":")
      yield* DataDirLock.acquire(dataDir)
      assert.strictEqual((yield* readFile(dataDir)).pid, process.pid)
    }))

  it.effect("records the admin socket in the held lock", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDataDir
      const lock = yield* DataDirLock.acquire(dataDir)
      yield* lock.setAdminSocket("/tmp/herald-admin.sock")
      assert.strictEqual((yield* readFile(dataDir)).adminSocket, "/tmp/herald-admin.sock")
      yield* DataDirLock.setAdminSocket(dataDir, "/tmp/other.sock")
      const read = yield* DataDirLock.readLock(dataDir)
      assert.strictEqual(Option.getOrThrow(read).adminSocket, "/tmp/other.sock")
      yield* lock.setAdminSocket(undefined)
      assert.isUndefined((yield* readFile(dataDir)).adminSocket)
    }))
})
