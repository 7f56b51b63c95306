import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { execFile, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Option } from "effect"
import { People } from "@herald/core"
import { backends } from "@herald/db/testing"
import { examplePackage, freePort, request, serverLayer, workspaceWithKey } from "./harness.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import * as McpClient from "./mcpClient.ts"
import { patience } from "../../../vitest.shared.ts"

// Real MCP clients against Herald's OAuth server and /api/mcp, as people run them: mcp-remote, which signs in by
// itself (discovery, registration, PKCE) and bridges stdio to HTTP, and the Inspector's command line, with a key
// and through mcp-remote. The person's consent is given through the console's API with a session, as the consent
// page does; the browser mcp-remote would open is the `true` command, and the test follows the URL it prints.

const password = "correct horse battery"
const mcpRemote = fileURLToPath(new URL("../node_modules/mcp-remote/dist/proxy.js", import.meta.url))
const inspector = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js", import.meta.url))

/**
 * The environment of a client run without a desktop: no display, and a browser that opens nothing (`true`). The
 * Inspector signs in without a terminal only when told it may open a browser; it prints the URL either way.
 */
const headless = (configDir: string): Record<string, string> => {
  const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...rest } = process.env
  return {
    ...rest,
    BROWSER: "true",
    MCP_AUTO_OPEN_ENABLED: "true",
    MCP_REMOTE_CONFIG_DIR: configDir,
    MCP_STORAGE_DIR: configDir,
    HOME: configDir
  } as Record<string, string>
}

/** A folder of the test's own for mcp-remote's registrations and tokens, removed with the scope. */
const configFolder = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "herald-mcp-remote-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

/** Runs a command to its end: its exit code and what it wrote. */
const run = (args: ReadonlyArray<string>, env: Record<string, string> = process.env as Record<string, string>) =>
  Effect.promise(() =>
    new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
      execFile(process.execPath, args, { env, timeout: patience }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
    })
  )

let count = 0

/** A workspace with an account, its key, and its owner signed in to the console's API. */
const setup = (base: string) =>
  Effect.gen(function*() {
    const tag = `c${++count}${Date.now().toString(36)}`
    const email = `owner@${tag}.test`
    const { key, workspace } = yield* workspaceWithKey(`WS ${tag}`, email)
    const people = yield* People.People
    const person = yield* Effect.orDie(people.ensure(email))
    yield* Effect.orDie(people.setPassword(person.id, password))
    const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: `${tag}_a` }))
    const signedIn = yield* request(`${base}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: JSON.stringify({ email, password })
    })
    assert.strictEqual(signedIn.status, 200, signedIn.text)
    const headers = { origin: base, cookie: signedIn.headers.get("set-cookie")!.split(";")[0]!, "x-csrf-token": signedIn.body.data.csrfToken }
    const owner = (method: string, path: string, body?: unknown) =>
      request(`${base}/api/v1${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    return { key: key.key, workspace, account, owner }
  })

/** The person's part of a sign-in: `/authorize` to the consent page's request, Allow, and back to the client. */
const consent = (authorizationUrl: string, owner: Effect.Success<ReturnType<typeof setup>>["owner"], workspaceId: string) =>
  Effect.gen(function*() {
    const authorize = yield* Effect.promise(() => fetch(authorizationUrl, { redirect: "manual" }))
    assert.strictEqual(authorize.status, 302)
    const consentPage = new URL(authorize.headers.get("location")!)
    assert.strictEqual(consentPage.pathname, "/app/oauth/consent")
    const approved = yield* owner("POST", `/oauth/requests/${consentPage.searchParams.get("request")}/approve`, { workspaceId })
    assert.strictEqual(approved.status, 200, approved.text)
    // The browser lands on mcp-remote's own callback server, which trades the code for tokens.
    const landed = yield* Effect.promise(() => fetch(approved.body.data.redirectTo))
    assert.strictEqual(landed.status, 200)
  })

/** The names of the tools in a `tools/list` answer. */
const names = (tools: ReadonlyArray<{ readonly name: string }>) => tools.map((tool) => tool.name).sort()

for (const backend of backends()) {
  // The public address must be the one clients reach: the resource and the issuer are named by it.
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const mcpUrl = `${base}/api/mcp`
  layer(serverLayer({ port, baseUrl: Option.some(base) }, [examplePackage], backend), { excludeTestServices: true })(
    `real MCP clients on ${backend.name}`,
    (it) => {
      it.effect("mcp-remote signs in by the URL alone, lists and calls the tools over stdio; the Inspector reuses its sign-in", () =>
        Effect.scoped(Effect.gen(function*() {
          const { account, key, owner, workspace } = yield* setup(base)
          const keyed = yield* McpClient.connect(base, key)
          const expected = names((yield* Effect.promise(() => keyed.listTools())).tools)
          const configDir = yield* configFolder
          const callbackPort = String(yield* Effect.promise(freePort))
          const bridge = [mcpRemote, mcpUrl, callbackPort, "--host", "127.0.0.1", "--allow-http", "--auth-timeout", "120"]

          const transport = new StdioClientTransport({ command: process.execPath, args: bridge, env: headless(configDir), stderr: "pipe" })
          const printed: Array<string> = []
          const authorizationUrl = new Promise<string>((resolve) =>
            transport.stderr!.on("data", (chunk: Buffer) => {
              printed.push(chunk.toString())
              const found = printed.join("").match(/^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m)
              if (found !== null) resolve(found[1]!)
            })
          )
          const client = new Client({ name: "herald-test", version: "1.0.0" })
          const connected = client.connect(transport)
          yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
          const url = new URL(yield* Effect.promise(() => authorizationUrl))
          assert.strictEqual(url.searchParams.get("code_challenge_method"), "S256")
          assert.strictEqual(url.searchParams.get("resource"), mcpUrl)
          assert.strictEqual(url.searchParams.get("redirect_uri"), `http://127.0.0.1:${callbackPort}/oauth/callback`)
          yield* consent(url.toString(), owner, workspace.id)
          yield* Effect.promise(() => connected)

          const { tools } = yield* Effect.promise(() => client.listTools())
          assert.deepStrictEqual(names(tools), expected)
          // It acts as the owner in the workspace chosen at consent.
          const accounts = yield* McpClient.call(client, "list_accounts")
          assert.notOk(accounts.isError, JSON.stringify(accounts.content))
          assert.deepStrictEqual((accounts.structuredContent as { data: Array<{ id: string }> }).data.map((found) => found.id), [account.id])
          assert.lengthOf((yield* owner("GET", "/oauth/grants")).body.data, 1)

          // The Inspector's command line starts mcp-remote as its stdio server; the tokens mcp-remote keeps in
          // its folder sign it in without a browser.
          const listed = yield* run(
            [inspector, "--cli", "-e", `MCP_REMOTE_CONFIG_DIR=${configDir}`, "--format", "json", "--method", "tools/list", "--", process.execPath, ...bridge],
            headless(configDir)
          )
          assert.strictEqual(listed.code, 0, listed.stderr)
          assert.deepStrictEqual(names(JSON.parse(listed.stdout).result.tools), expected)
        })))

      it.effect("the Inspector's command line lists and calls the tools with a key, and shows Herald's 401 without one", () =>
        Effect.scoped(Effect.gen(function*() {
          const { account, key } = yield* setup(base)
          const env = headless(yield* configFolder)
          const keyed = yield* Effect.scoped(Effect.flatMap(McpClient.connect(base, key), (client) => Effect.promise(() => client.listTools())))
          const withKey = ["--cli", mcpUrl, "--transport", "http", "--format", "json", "--header", `Authorization: Bearer ${key}`]

          const listed = yield* run([inspector, ...withKey, "--method", "tools/list"], env)
          assert.strictEqual(listed.code, 0, listed.stderr)
          assert.deepStrictEqual(names(JSON.parse(listed.stdout).result.tools), names(keyed.tools))

          const called = yield* run([inspector, ...withKey, "--method", "tools/call", "--tool-name", "list_accounts"], env)
          assert.strictEqual(called.code, 0, called.stderr)
          const result = JSON.parse(called.stdout).result
          assert.notOk(result.isError, called.stdout)
          assert.deepStrictEqual(result.structuredContent.data.map((found: { id: string }) => found.id), [account.id])

          // docs/mcp.md's example: a number given as key=value reaches the tool as a number.
          const paged = yield* run([inspector, ...withKey, "--method", "tools/call", "--tool-name", "list_posts", "--tool-arg", "limit=5"], env)
          assert.strictEqual(paged.code, 0, paged.stderr)
          assert.notOk(JSON.parse(paged.stdout).result.isError, paged.stdout)

          // Without a key, and told not to sign in, it stops at the 401 and shows Herald's words.
          const refused = yield* run([inspector, "--cli", mcpUrl, "--transport", "http", "--format", "json", "--stored-auth-only", "--method", "tools/list"], env)
          assert.strictEqual(refused.code, 3, refused.stderr)
          const error = JSON.parse(refused.stderr).error
          assert.strictEqual(error.code, "auth_required")
          assert.include(error.message, "Missing API key. Send an API key as `Authorization: Bearer <key>`")
        })))

      it.effect("the Inspector's command line signs in by the URL alone and lists the tools", () =>
        Effect.scoped(Effect.gen(function*() {
          const { key, owner, workspace } = yield* setup(base)
          const keyed = yield* McpClient.connect(base, key)
          const expected = names((yield* Effect.promise(() => keyed.listTools())).tools)
          const callback = `http://127.0.0.1:${yield* Effect.promise(freePort)}/oauth/callback`
          const child = spawn(
            process.execPath,
            [inspector, "--cli", mcpUrl, "--transport", "http", "--format", "json", "--callback-url", callback, "--method", "tools/list"],
            { env: headless(yield* configFolder) }
          )
          yield* Effect.addFinalizer(() => Effect.sync(() => child.kill()))
          const output = { stdout: "", stderr: "" }
          child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()))
          const authorizationUrl = new Promise<string>((resolve) =>
            child.stderr.on("data", (chunk: Buffer) => {
              output.stderr += chunk.toString()
              const found = output.stderr.match(/Please navigate to: (\S+)/)
              if (found !== null) resolve(found[1]!)
            })
          )
          const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
          const url = yield* Effect.promise(() => authorizationUrl)
          assert.strictEqual(new URL(url).searchParams.get("redirect_uri"), callback)
          yield* consent(url, owner, workspace.id)
          assert.strictEqual(yield* Effect.promise(() => exited), 0, output.stderr)
          assert.deepStrictEqual(names(JSON.parse(output.stdout).result.tools), expected)
        })))
    }
  )
}
