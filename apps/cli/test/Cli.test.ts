import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { createInterface } from "node:readline"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { patience } from "../../../vitest.shared.ts"
import { migratedDataFolder } from "./dataFolder.ts"

// The command line as an operator uses it: real processes, one data folder, with the server running (each
// command a client of its admin socket) and stopped (each command opening the folder itself). Every process
// is a Node.js start and the whole app: a command runs once, and commands that do not depend on each other
// run at once. The folder's database is made before (dataFolder.ts); the first start still makes the Demo
// workspace.
const bin = resolve(import.meta.dirname, "../src/bin.ts")
const dataDir = await migratedDataFolder("herald-cli-")
// Vitest puts Vite's BASE_URL ("/") into the environment; Herald would read it as its own.
const env = { ...process.env, BASE_URL: "", HERALD_DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", HOST: "127.0.0.1" }

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  readonly json: any
}

/** `herald <args>` on the file's data folder, with `extra` settings on top of the file's. */
const heraldWith = (extra: Record<string, string>) => (...args: ReadonlyArray<string>) =>
  new Promise<Run>((resolveRun) => {
    execFile(process.execPath, [bin, ...args], { env: { ...env, ...extra }, timeout: patience }, (error, stdout, stderr) => {
      let json: unknown = undefined
      try {
        json = JSON.parse(stdout)
      } catch {
        json = undefined
      }
      resolveRun({ code: error === null ? 0 : (error.code as number) ?? 1, stdout, stderr, json })
    })
  })

const herald = Object.assign(heraldWith({}), { with: heraldWith })

let server: ChildProcess | undefined
let started: any

const startServer = () =>
  new Promise<any>((resolveStart, reject) => {
    server = spawn(process.execPath, [bin, "start", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] })
    const lines = createInterface({ input: server.stdout! })
    lines.once("line", (line) => resolveStart(JSON.parse(line)))
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)))
  })

const stopServer = () =>
  new Promise<void>((resolveStop) => {
    if (server === undefined || server.exitCode !== null) return resolveStop()
    server.once("exit", () => resolveStop())
    server.kill("SIGTERM")
  })

const accounts = (key: string) =>
  fetch(`${started.listening}/api/v1/accounts`, { headers: { authorization: `Bearer ${key}` } })

beforeAll(async () => {
  started = await startServer()
})

afterAll(async () => {
  await stopServer()
  rmSync(dataDir, { recursive: true, force: true })
})

// Each test makes what it changes (its own workspace), so they run at once.
describe.concurrent("herald with the server running", () => {
  it("printed the first run's Demo workspace and a key that works", async () => {
    assert.strictEqual(started.database, "embedded")
    assert.strictEqual(started.firstRun.workspace.name, "Demo")
    assert.match(started.firstRun.key.key, /^hrld_/)
    assert.match(started.docs, /\/docs$/)
    // With PORT=0 and no BASE_URL, links use the port actually listened on.
    const port = new URL(started.listening).port
    assert.strictEqual(started.api, `http://localhost:${port}/api/v1`)
    assert.match(started.mcp, /\/api\/mcp$/)
    // In the sandbox the Demo workspace has one account per network, connected through OAuth.
    const answer = await accounts(started.firstRun.key.key)
    assert.strictEqual(answer.status, 200)
    const body = (await answer.json()) as any
    assert.deepStrictEqual(body.data.map((account: any) => account.platform).sort(), [...started.networks].sort())
    assert.isTrue(body.data.every((account: any) => account.status === "connected" && account.username.startsWith("demo_")))
    assert.isTrue(started.sandbox)
    assert.isAtLeast(started.networks.length, 5)
  })

  it("creates a workspace and a key through the server, and a revoked key is refused on the next request", async () => {
    const workspace = await herald("workspace", "create", "--name", "Acme", "--owner-email", "owner@acme.test", "--json")
    assert.strictEqual(workspace.code, 0, workspace.stderr)
    assert.match(workspace.json.id, /^ws_/)
    assert.strictEqual(workspace.json.name, "Acme")

    const created = await herald("key", "create", "--workspace", workspace.json.id, "--name", "ci", "--json")
    assert.strictEqual(created.code, 0, created.stderr)
    assert.match(created.json.id, /^key_/)
    assert.match(created.json.key, /^hrld_[0-9A-Za-z]{49}$/)
    const [works, listed] = await Promise.all([
      accounts(created.json.key),
      herald("key", "list", "--workspace", workspace.json.id, "--json")
    ])
    assert.strictEqual(works.status, 200)
    assert.deepStrictEqual(listed.json.map((key: any) => key.id), [created.json.id])
    assert.strictEqual(listed.json[0].lastFour, created.json.key.slice(-4))
    assert.notInclude(listed.stdout, created.json.key)

    const revoked = await herald("key", "revoke", created.json.id, "--json")
    assert.strictEqual(revoked.code, 0, revoked.stderr)
    assert.isString(revoked.json.revokedAt)
    const refused = await accounts(created.json.key)
    assert.strictEqual(refused.status, 401)
    assert.strictEqual(((await refused.json()) as any).error.code, "unauthorized")
  })

  // The server connects every network's sandbox account the same way (the Demo workspace's, above, are one
  // per network): the command is checked with one.
  it("connects a sandbox account through the running server, and refuses a network it does not know", async () => {
    const workspace = await herald("workspace", "create", "--name", "Sandboxed", "--json")
    const connect = (platform: string) =>
      herald(
        "account", "connect", "--workspace", workspace.json.id, "--platform", platform, "--sandbox",
        "--username", `cli_${platform}`, "--json"
      )
    const [connected, unknown] = await Promise.all([connect("threads"), connect("myspace")])
    assert.strictEqual(connected.code, 0, connected.stdout + connected.stderr)
    assert.deepInclude(connected.json, { platform: "threads", username: "cli_threads", status: "connected" })
    assert.strictEqual(unknown.code, 1)
    assert.include(unknown.json.error.message, "myspace")
    const listed = await herald("account", "list", "--workspace", workspace.json.id, "--json")
    assert.deepStrictEqual(listed.json.map((account: any) => account.id), [connected.json.id])
  })

  it("answers errors as one JSON document and exit code 1", async () => {
    const [missing, unknownWorkspace] = await Promise.all([
      herald("key", "revoke", "key_0000000000000000000000", "--json"),
      herald("key", "create", "--workspace", "ws_0000000000000000000000", "--json")
    ])
    assert.strictEqual(missing.code, 1)
    assert.strictEqual(missing.json.error.code, "not_found")
    assert.strictEqual(unknownWorkspace.code, 1)
    assert.strictEqual(unknownWorkspace.json.error.code, "not_found")
  })

  it("refuses a second server on the same data folder, saying who holds it", async () => {
    const second = await herald("start", "--json")
    assert.strictEqual(second.code, 1)
    assert.strictEqual(second.json.error.code, "conflict")
    assert.include(second.json.error.message, String(server!.pid))
  })

  it("herald member invites through the server; the link makes a member whose role changes and who is removed", async () => {
    const workspace = (await herald("workspace", "create", "--name", "Team", "--owner-email", "boss@team.test", "--json")).json
    const invited = await herald("member", "invite", "--workspace", workspace.id, "--email", "Ed@Team.test", "--role", "editor", "--json")
    assert.strictEqual(invited.code, 0, invited.stderr)
    assert.strictEqual(invited.json.email, "ed@team.test")
    assert.match(invited.json.url, /\/app\/invitation#inv_/)
    // Accepted as the console does: the token from the fragment, a name and a password for the new person.
    const opened = await fetch(`${started.listening}/api/v1/auth/invitation/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(invited.json.url).origin },
      body: JSON.stringify({ token: invited.json.url.split("#").at(-1), name: "Ed", password: "a long enough password" })
    })
    assert.strictEqual(opened.status, 200, await opened.clone().text())
    const members = (await herald("member", "list", "--workspace", workspace.id, "--json")).json
    assert.deepStrictEqual(members.map((member: any) => [member.email, member.role]), [["boss@team.test", "owner"], ["ed@team.test", "editor"]])
    const ed = members[1]
    const [role, lastOwner, bad] = await Promise.all([
      herald("member", "role", ed.id, "--role", "viewer", "--json"),
      herald("member", "remove", members[0].id, "--json"),
      herald("member", "invite", "--workspace", workspace.id, "--email", "nope", "--role", "chief", "--json")
    ])
    assert.strictEqual(role.json.role, "viewer")
    assert.strictEqual(lastOwner.code, 1)
    assert.strictEqual(lastOwner.json.error.code, "conflict")
    assert.strictEqual(bad.json.error.code, "invalid")
    const removed = await herald("member", "remove", ed.id)
    assert.strictEqual(removed.code, 0)
    assert.include(removed.stdout, "Removed ed@team.test")
    assert.strictEqual((await herald("member", "role", ed.id, "--role", "admin", "--json")).json.error.code, "not_found")
  })

  it("the first run's console link signs in the Demo owner once; herald member login-link prints another", async () => {
    assert.match(started.consoleLink, /^http:\/\/localhost:\d+\/app\/link#[A-Za-z0-9_-]{43}$/)
    const useLink = (url: string) =>
      fetch(`${started.listening}/api/v1/auth/link`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: new URL(url).origin },
        body: JSON.stringify({ token: url.split("#").at(-1) })
      })
    const first = await useLink(started.consoleLink)
    assert.strictEqual(first.status, 200)
    const session = (await first.json()) as any
    assert.strictEqual(session.data.person.email, "owner@demo.example")
    assert.strictEqual(session.data.workspace.role, "owner")
    assert.isTrue(session.data.mustSetPassword)
    assert.strictEqual((await useLink(started.consoleLink)).status, 400)

    const loginLink = (...args: ReadonlyArray<string>) =>
      herald("member", "login-link", "--workspace", started.firstRun.workspace.id, ...args)
    const [link, plain, unknown] = await Promise.all([
      loginLink("--email", "Owner@Demo.example", "--json"),
      loginLink("--email", "owner@demo.example"),
      loginLink("--email", "nobody@demo.example", "--json")
    ])
    assert.strictEqual(link.code, 0, link.stderr)
    assert.deepStrictEqual(Object.keys(link.json).sort(), ["expiresAt", "url"])
    assert.isAbove(Date.parse(link.json.expiresAt) - Date.now(), 23.9 * 3_600_000)
    assert.strictEqual((await useLink(link.json.url)).status, 200)
    assert.include(plain.stdout, "/app/link#")
    assert.strictEqual(unknown.code, 1)
    assert.strictEqual(unknown.json.error.code, "not_found")
  })

  it("herald mcp bridges an assistant on stdio to the server's /api/mcp with the key", async () => {
    const key = started.firstRun.key.key as string
    const client = new Client({ name: "cli-test", version: "1.0.0" })
    const stderr: Array<string> = []
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--url", started.listening],
      // The key from the environment, as a desktop assistant's configuration gives it.
      env: { ...env, HERALD_API_KEY: key } as Record<string, string>,
      stderr: "pipe"
    })
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()))
    await client.connect(transport)
    try {
      assert.strictEqual(client.getServerVersion()?.name, "herald")
      const { tools } = await client.listTools()
      assert.lengthOf(tools, 18)
      const listed = await client.callTool({ name: "list_accounts", arguments: {} }) as CallToolResult
      assert.deepStrictEqual(listed.structuredContent, await (await accounts(key)).json())
      const accountId = (listed.structuredContent as any).data[0].id
      const created = await client.callTool({
        name: "create_post",
        arguments: { content: "Through the bridge", accountIds: [accountId], draft: true }
      }) as CallToolResult
      const post = (created.structuredContent as any).data
      assert.strictEqual(post.status, "draft")
      const rest = await fetch(`${started.listening}/api/v1/posts/${post.id}`, { headers: { authorization: `Bearer ${key}` } })
      assert.deepStrictEqual(created.structuredContent, await rest.json())
      const failed = await client.callTool({ name: "get_post", arguments: { id: "pst_0000000000000000000000" } }) as CallToolResult
      assert.isTrue(failed.isError)
      assert.strictEqual(JSON.parse((failed.content[0] as any).text).error.code, "not_found")
    } finally {
      await client.close()
    }
    assert.deepStrictEqual(stderr.join(""), "")
  })

  it("herald mcp with a bad key answers the assistant with the server's refusal", async () => {
    const client = new Client({ name: "cli-test", version: "1.0.0" })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--url", started.listening, "--key", "hrld_wrong"],
      env: env as Record<string, string>,
      stderr: "pipe"
    })
    const refused = await client.connect(transport).then(() => "connected", (error: Error) => error.message)
    await client.close()
    assert.include(refused, "could not be reached or refused the request")
    // The server's own words reach the assistant.
    assert.include(refused, `"code":"unauthorized"`)
    assert.include(refused, "Malformed API key")
  })

  it("reports that the running server migrated the database", async () => {
    const migrated = await herald("migrate", "--json")
    assert.strictEqual(migrated.code, 0, migrated.stderr)
    assert.deepInclude(migrated.json, { migrated: true, by: "server" })
  })
})

describe("herald with the server stopped", () => {
  it("herald member works on the data folder itself while the server is stopped", async () => {
    await stopServer()
    const workspace = (await herald("workspace", "create", "--name", "Quiet", "--owner-email", "q@quiet.test", "--json")).json
    const invited = await herald("member", "invite", "--workspace", workspace.id, "--email", "new@quiet.test", "--role", "admin", "--json")
    assert.strictEqual(invited.code, 0, invited.stderr)
    assert.strictEqual(invited.json.role, "admin")
    // Without SMTP the invitation e-mail is logged, without its link: it is printed here instead (decision 0059).
    assert.include(invited.stderr, "e-mail not sent")
    assert.notInclude(invited.stderr, invited.json.url.split("#").at(-1))
    const members = (await herald("member", "list", "--workspace", workspace.id, "--json")).json
    assert.deepStrictEqual(members.map((member: any) => member.email), ["q@quiet.test"])
  })

  it("opens the data folder itself; a key revoked while stopped is refused once the server is back", async () => {
    await stopServer()
    const listed = await herald("workspace", "list", "--json")
    assert.strictEqual(listed.code, 0, listed.stderr)
    // Oldest first; the tests with the server running made theirs at once.
    const names = listed.json.map((workspace: any) => workspace.name)
    assert.deepStrictEqual([names[0], ...names.slice(1, -1).sort(), names.at(-1)], ["Demo", "Acme", "Sandboxed", "Team", "Quiet"])

    // The workspace the test before made while stopped.
    const quiet = listed.json.find((workspace: any) => workspace.name === "Quiet")
    const created = await herald("key", "create", "--workspace", quiet.id, "--json")
    assert.strictEqual(created.code, 0, created.stderr)
    const doomed = await herald("key", "create", "--workspace", quiet.id, "--json")
    const revoked = await herald("key", "revoke", doomed.json.id, "--json")
    assert.strictEqual(revoked.code, 0, revoked.stderr)
    const migrated = await herald("migrate", "--json")
    assert.deepInclude(migrated.json, { migrated: true, by: "cli" })
    // A sandbox account connected with no server running (the command serves the sandbox briefly itself):
    // MastodonConnect.test.ts and SignIn.test.ts.

    started = await startServer()
    assert.isNull(started.firstRun)
    assert.strictEqual((await accounts(created.json.key)).status, 200)
    assert.strictEqual((await accounts(doomed.json.key)).status, 401)
  })

  it("stops at a bad setting with a message naming the variable", async () => {
    const bad = await herald.with({ HERALD_RATE_LIMIT_PER_MINUTE: "lots" })("workspace", "list", "--json")
    assert.strictEqual(bad.code, 1)
    assert.strictEqual(bad.json.error.code, "invalid")
    assert.include(bad.json.error.message, "HERALD_RATE_LIMIT_PER_MINUTE")
  })

  it("refuses a role other than all on the embedded database, and an unknown role", async () => {
    const roles = [["worker", "all when DATABASE_URL is unset"], ["cook", "all, api or worker"]] as const
    const refused = await Promise.all(roles.map(([role]) => herald.with({ HERALD_ROLE: role })("start", "--json")))
    for (const [index, [role, expected]] of roles.entries()) {
      const bad = refused[index]!
      assert.strictEqual(bad.code, 1)
      assert.strictEqual(bad.json.error.code, "invalid")
      assert.include(bad.json.error.message, `HERALD_ROLE="${role}"`)
      assert.include(bad.json.error.message, expected)
    }
  })
})
