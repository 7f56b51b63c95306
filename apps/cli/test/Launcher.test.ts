import { assert, describe, it } from "@effect/vitest"
import { execFile, execFileSync } from "node:child_process"
import { accessSync, constants, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, dirname, join, resolve } from "node:path"
import { Settings } from "@herald/core"
import { patience } from "../../../vitest.shared.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// `./herald` as a newcomer runs it from a fresh clone: with the machine's own Node.js first on PATH (the
// README asks only for Node.js 20 and npm), never the Node.js 24 the test run itself is on.
const root = resolve(import.meta.dirname, "../../..")
const launcher = join(root, "herald")

// PATH without any node_modules/.bin (vitest and pnpm put theirs first), so `node` is the system's.
const systemPath = (process.env["PATH"] ?? "").split(delimiter).filter((entry) => !entry.includes("node_modules"))
  .join(delimiter)
const onSystemPath = (name: string) =>
  systemPath.split(delimiter).map((entry) => join(entry, name)).find((file) => {
    try {
      accessSync(file, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
const systemNode = onSystemPath("node")

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const run = (file: string, args: ReadonlyArray<string>, cwd = root) =>
  new Promise<Run>((done) => {
    const env = { ...process.env, PATH: systemPath, BASE_URL: "", DATABASE_URL: "", HERALD_DATA_DIR: mkdtempSync(join(tmpdir(), "herald-launcher-")) }
    execFile(file, args, { env, cwd, timeout: patience }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const version = (node: string) =>
  new Promise<string>((done) => execFile(node, ["--version"], (_error, stdout) => done(stdout.trim())))

describe("./herald", () => {
  it("runs the command line with the system's Node.js first on PATH", async () => {
    // The point of the test: that Node.js is not the one Herald runs on (today's machines have 20).
    if (systemNode !== undefined) assert.notStrictEqual(await version(systemNode), process.version)
    const help = await run(launcher, ["--help"])
    assert.strictEqual(help.code, 0, help.stderr)
    assert.include(help.stdout, "secret")
    assert.include(help.stdout, "start")
  })

  it("passes stdout and the exit code through: a refused call is one JSON document and code 1", async () => {
    const refused = await run(launcher, ["key", "list", "--json"])
    assert.strictEqual(refused.code, 1)
    assert.strictEqual(JSON.parse(refused.stdout).error.code, "invalid")
  })

  it("works through a symbolic link from another folder", async () => {
    const folder = mkdtempSync(join(tmpdir(), "herald-link-"))
    symlinkSync(launcher, join(folder, "herald"))
    const linked = await run(join(folder, "herald"), ["--version"])
    rmSync(folder, { recursive: true, force: true })
    assert.strictEqual(linked.code, 0, linked.stderr)
    assert.match(linked.stdout, /herald v\d/)
  })

  it("says how to install when the dependencies are not installed, and exits non-zero", async () => {
    const folder = mkdtempSync(join(tmpdir(), "herald-clone-"))
    copyFileSync(launcher, join(folder, "herald"))
    const fresh = await run(join(folder, "herald"), ["--help"])
    rmSync(folder, { recursive: true, force: true })
    assert.notStrictEqual(fresh.code, 0)
    assert.strictEqual(fresh.stdout, "")
    assert.include(fresh.stderr, "npx -y pnpm@12.21.0 install")
  })
})

describe("herald secret generate", () => {
  it("prints a new HERALD_SECRET_KEY value each time, alone on stdout", async () => {
    const [first, second] = await Promise.all([run(launcher, ["secret", "generate"]), run(launcher, ["secret", "generate"])])
    assert.strictEqual(first.code, 0, first.stderr)
    assert.match(first.stdout, /^[0-9a-f]{64}\n$/)
    assert.notStrictEqual(first.stdout, second.stdout)
    // Herald takes it as its key.
    assert.strictEqual(Settings.decodeSecretKey(first.stdout.trim())?.length, 32)
  })

  it("prints { secret } with --json", async () => {
    const printed = await run(launcher, ["secret", "generate", "--json"])
    assert.strictEqual(printed.code, 0, printed.stderr)
    const document = JSON.parse(printed.stdout)
    assert.deepStrictEqual(Object.keys(document), ["secret"])
    assert.match(document.secret, /^[0-9a-f]{64}$/)
  })
})

// The README's quick start from a fresh clone, with the system's Node.js and npx only: the packages come
// from pnpm's store, as the test run's own install left it.
describe("a fresh clone", skipIf(onSystemPath("npx") === undefined ? "npx is not on the system's PATH" : undefined), () => {
  it("installs without engine warnings with the system's Node.js, then ./herald runs", async () => {
    const clone = mkdtempSync(join(tmpdir(), "herald-clone-"))
    const listed = (...options: ReadonlyArray<string>) =>
      execFileSync("git", ["ls-files", "-z", ...options], { cwd: root, encoding: "utf8" }).split("\0").filter((file) => file !== "")
    // The working tree as it is: a file deleted but not yet committed is not in it.
    const deleted = new Set(listed("--deleted"))
    const files = listed("--cached", "--others", "--exclude-standard").filter((file) => !deleted.has(file))
    for (const file of files) {
      mkdirSync(join(clone, dirname(file)), { recursive: true })
      cpSync(join(root, file), join(clone, file), { verbatimSymlinks: true })
    }
    const install = await run(onSystemPath("npx")!, ["-y", "pnpm@12.21.0", "install", "--frozen-lockfile", "--prefer-offline"], clone)
    assert.strictEqual(install.code, 0, install.stdout + install.stderr)
    assert.notMatch(install.stdout + install.stderr, /Unsupported engine/)
    const version = await run(join(clone, "herald"), ["--version"], clone)
    // Where no POSIX shell runs the script (Windows): the package script, on the Node.js pnpm puts first.
    const throughPnpm = await run(onSystemPath("npx")!, ["-y", "pnpm@12.21.0", "herald", "secret", "generate", "--json"], clone)
    rmSync(clone, { recursive: true, force: true })
    assert.strictEqual(version.code, 0, version.stderr)
    assert.match(version.stdout, /herald v\d/)
    assert.strictEqual(throughPnpm.code, 0, throughPnpm.stderr)
    assert.match(JSON.parse(throughPnpm.stdout).secret, /^[0-9a-f]{64}$/)
  })

  it("checks the packages' engines against the Node.js Herald runs on", () => {
    const nodeDependency = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.node
    const checkedAgainst = /^nodeVersion: (.+)$/m.exec(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8"))?.[1]
    assert.strictEqual(`npm:node@${checkedAgainst}`, nodeDependency)
  })
})
