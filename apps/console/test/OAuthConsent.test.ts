import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
// The MCP SDK is the server's dependency, not the console's: these tests use the server's copy of it.
import { UnauthorizedError, type OAuthClientProvider } from "../../server/node_modules/@modelcontextprotocol/sdk/dist/esm/client/auth.js"
import { Client } from "../../server/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js"
import { StreamableHTTPClientTransport } from "../../server/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "../../server/node_modules/@modelcontextprotocol/sdk/dist/esm/shared/auth.js"
import { checkPage, type ConsoleBrowser, type Herald, missing, ownerPassword, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Connecting an assistant by OAuth, as an assistant does it: the MCP SDK's client in this process registers,
// is refused with a 401 and sends "the person" (headless Chromium) to Herald's authorization page, which
// lands on the console's consent page; the answer comes back to the assistant's own callback on 127.0.0.1
// (RFC 8252), as a code it trades for tokens. Then Settings > Connected assistants lists it and disconnects
// it. The tests run in order and share the first assistant.

const owner = "owner@demo.example"
const phone = { width: 375, height: 740 }
const desktop = { width: 1280, height: 800 }

/** The assistant's loopback callback: what the browser was sent back with, each time. */
const startCallback = async () => {
  const answers: Array<URLSearchParams> = []
  const waiting: Array<(answer: URLSearchParams) => void> = []
  const server: Server = createServer((request, response) => {
    const answer = new URL(request.url ?? "/", "http://127.0.0.1").searchParams
    answers.push(answer)
    waiting.shift()?.(answer)
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end("<!doctype html><title>Done</title><p>You may close this page.</p>")
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`
  return {
    url,
    /** The next answer to arrive (or the one that already has, unread). */
    next: (seen: number) =>
      answers.length > seen ? Promise.resolve(answers[seen]!) : new Promise<URLSearchParams>((resolve) => waiting.push(resolve)),
    count: () => answers.length,
    close: () => new Promise<void>((closed) => server.close(() => closed()))
  }
}

type Callback = Awaited<ReturnType<typeof startCallback>>

/**
 * An OAuth client as the SDK asks for one, keeping everything in memory; it "redirects" by opening the
 * authorization URL in `browse.page` (swapped by the tests), or only records it when that is undefined.
 */
const assistant = (name: string, callback: Callback) => {
  const browse: { page: Page | undefined } = { page: undefined }
  const kept: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier: string; state: string } = {
    verifier: "",
    state: randomUUID()
  }
  const authorizations: Array<URL> = []
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return callback.url
    },
    get clientMetadata() {
      return {
        client_name: name,
        redirect_uris: [callback.url],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none"
      }
    },
    state: () => kept.state,
    clientInformation: () => kept.client,
    saveClientInformation: (client) => {
      kept.client = client
    },
    tokens: () => kept.tokens,
    saveTokens: (tokens) => {
      kept.tokens = tokens
    },
    redirectToAuthorization: async (url) => {
      authorizations.push(url)
      await browse.page?.goto(url.href)
    },
    saveCodeVerifier: (verifier) => {
      kept.verifier = verifier
    },
    codeVerifier: () => kept.verifier,
    // What the SDK drops when the server says they are no longer good (a refused refresh token).
    invalidateCredentials: (scope) => {
      if (scope === "all" || scope === "tokens") delete kept.tokens
      if (scope === "all" || scope === "client") delete kept.client
    }
  }
  return { provider, browse, kept, authorizations }
}

describe("connecting an assistant by OAuth", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let page: Page
  let callback: Callback
  let mcp: URL
  let first: ReturnType<typeof assistant>
  let connected: Client

  beforeAll(async () => {
    callback = await startCallback()
  })
  afterAll(async () => {
    await connected?.close()
    await callback?.close()
  })
  useConsole(async (run) => {
    herald = run.herald
    browser = run.browser
    page = await signInAsOwner(run.browser, herald)
    mcp = new URL(herald.url("/api/mcp"))
  })

  const accessible = async (on: Page, name?: string) => assert.deepStrictEqual(await checkPage(on, name), [])

  /** The browser went to the assistant's callback and nowhere else outside Herald. */
  const wentOnlyToCallback = () => {
    const elsewhere = browser.otherHosts()
    assert.isNotEmpty(elsewhere)
    for (const url of elsewhere) assert.isTrue(url.startsWith(callback.url), url)
  }

  /** Connecting without tokens: refused, and the person is sent to the consent page. */
  const startConnecting = async (client: ReturnType<typeof assistant>) => {
    const refused = await new Client({ name: "consent-test", version: "1.0.0" })
      .connect(new StreamableHTTPClientTransport(mcp, { authProvider: client.provider }))
      .then(() => undefined, (error: unknown) => error)
    assert.instanceOf(refused, UnauthorizedError)
    assert.strictEqual(client.authorizations.length, 1)
  }

  it("asks the signed-in owner on the consent page, and Allow gives the assistant a code that works on /api/mcp", async () => {
    first = assistant("Test assistant", callback)
    first.browse.page = page
    await startConnecting(first)

    // The heading shows while the request loads too: wait for the request itself.
    await page.getByRole("button", { name: "Allow" }).waitFor()
    assert.strictEqual(new URL(page.url()).pathname, "/app/oauth/consent")
    const text = await page.locator("main").innerText()
    assert.include(text, "Test assistant asks to use Herald as you (owner@demo.example)")
    assert.include(text, "It will work in Demo, where you are an owner.")
    assert.include(text, "Everything you can do there as an owner")
    assert.include(text, `a program on this computer, at ${new URL(callback.url).host}`)
    // One workspace: nothing to pick.
    assert.strictEqual(await page.getByLabel("Workspace", { exact: true }).count(), 0)
    await accessible(page, "oauth-consent")
    await page.setViewportSize(phone)
    await accessible(page)
    await page.setViewportSize(desktop)

    // An owner publishes without approval, so may let the assistant do so too (off until ticked).
    const direct = page.getByLabel("Let it publish without approval")
    assert.isFalse(await direct.isChecked())
    await direct.check()
    const seen = callback.count()
    await page.getByRole("button", { name: "Allow" }).click()
    const answer = await callback.next(seen)
    assert.strictEqual(answer.get("state"), first.kept.state)
    assert.isNull(answer.get("error"))
    const code = answer.get("code")
    assert.isString(code)
    await page.getByText("You may close this page.").waitFor()
    wentOnlyToCallback()

    const transport = new StreamableHTTPClientTransport(mcp, { authProvider: first.provider })
    await transport.finishAuth(code!)
    assert.isString(first.kept.tokens?.access_token)
    connected = new Client({ name: "consent-test", version: "1.0.0" })
    await connected.connect(new StreamableHTTPClientTransport(mcp, { authProvider: first.provider }))
    const tools = await connected.listTools()
    assert.include(tools.tools.map((tool) => tool.name), "list_accounts")
    // The code was for once: the page is not offered again.
    await page.goBack()
    await page.getByText("This request cannot be used").waitFor()
  })

  it("lists the assistant in Settings > Connected assistants, and Disconnect refuses its next call", async () => {
    await page.goto(herald.url("/app/calendar"))
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connected assistants" }).click()
    await page.getByRole("heading", { level: 1, name: "Connected assistants" }).waitFor()
    const rows = page.getByRole("table", { name: "Connected assistants" }).locator("tbody tr")
    await rows.first().waitFor()
    assert.strictEqual(await rows.count(), 1)
    const row = await rows.first().innerText()
    assert.include(row, "Test assistant")
    assert.include(row, owner)
    assert.include(row, "Owner")
    assert.include(row, "Without approval")
    // Its tools/list above counts as use.
    assert.notInclude(row, "Never")
    assert.include(await page.locator("main").innerText(), `${herald.origin}/api/mcp`)
    await accessible(page, "assistants")
    await page.setViewportSize(phone)
    await accessible(page)
    await page.setViewportSize(desktop)

    await page.getByRole("button", { name: `Disconnect Test assistant (${owner})` }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText("will be refused from its next request").waitFor()
    await dialog.getByRole("button", { name: "Disconnect" }).click()
    await page.getByText("No assistants connected yet.").waitFor()

    // The access token the assistant holds is refused at once, with the way to authorize again.
    const refused = await fetch(mcp, {
      method: "POST",
      headers: {
        authorization: `Bearer ${first.kept.tokens!.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    assert.strictEqual(refused.status, 401)
    assert.include(refused.headers.get("www-authenticate") ?? "", "resource_metadata=")
    // And so is the SDK client's next call: its refresh token went with the grant, so it can only ask the person
    // again (recorded here, not opened).
    first.browse.page = undefined
    const next = await connected.listTools().then(() => undefined, (error: unknown) => error)
    assert.instanceOf(next, UnauthorizedError)
    assert.strictEqual(first.authorizations.length, 2)
  })

  it("sends a signed-out person to sign in and back, offers a pick of workspaces with what each role allows, and Deny says access_denied", async () => {
    // The owner is also a viewer in a second workspace.
    const created = await herald.cli("workspace", "create", "--name", "Acme", "--json")
    assert.strictEqual(created.code, 0, created.stderr)
    const key = await herald.cli("key", "create", "--workspace", created.json.id, "--name", "invitations", "--json")
    assert.strictEqual(key.code, 0, key.stderr)
    const invited = await herald.api("POST", "/members/invitations", { email: owner, role: "viewer" }, key.json.key)
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))
    await page.goto(invited.body.data.url)
    await page.getByRole("button", { name: "Accept invitation" }).click()
    await page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()

    // On a phone, signed out.
    const visitor = await browser.open(herald, phone)
    const second = assistant("Second assistant", callback)
    second.browse.page = visitor.page
    await startConnecting(second)
    await visitor.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    await visitor.page.getByLabel("E-mail").fill(owner)
    await visitor.page.getByLabel("Password").fill(ownerPassword)
    await visitor.page.getByRole("button", { name: "Sign in" }).click()
    await visitor.page.getByRole("heading", { level: 1, name: "Connect an assistant" }).waitFor()
    await visitor.page.getByText("Second assistant asks to use Herald as you").waitFor()

    const picker = visitor.page.getByLabel("Workspace", { exact: true })
    assert.deepStrictEqual((await picker.locator("option").allInnerTexts()).sort(), ["Acme (Viewer)", "Demo (Owner)"])
    await picker.selectOption({ label: "Acme (Viewer)" })
    const abilities = visitor.page.getByRole("region", { name: "It will be able to" })
    await abilities.getByText("Read only").waitFor()
    assert.include(await abilities.innerText(), "It cannot create, change or send anything")
    assert.notInclude(await abilities.innerText(), "Everything")
    // A viewer publishes nothing, so cannot let an assistant publish without approval.
    assert.strictEqual(await visitor.page.getByLabel("Let it publish without approval").count(), 0)
    await accessible(visitor.page)
    await picker.selectOption({ label: "Demo (Owner)" })
    await abilities.getByText("Everything you can do there as an owner").waitFor()
    await visitor.page.getByLabel("Let it publish without approval").waitFor()

    // What the assistant will be able to do is the API's `permissions`, not the role's name: were viewers let
    // to write posts, the page would say so for the viewer's workspace.
    const requests = "**/api/v1/oauth/requests/*"
    await visitor.page.route(requests, async (route) => {
      if (route.request().method() !== "GET") return route.fallback()
      const response = await route.fetch()
      const body = await response.json()
      body.data.workspaces = body.data.workspaces.map((one: any) =>
        one.role === "viewer" ? { ...one, permissions: [...one.permissions, "change"] } : one
      )
      await route.fulfill({ response, json: body })
    })
    await visitor.page.reload()
    await picker.selectOption({ label: "Acme (Viewer)" })
    await abilities.getByText("Write posts as you", { exact: false }).waitFor()
    assert.notInclude(await abilities.innerText(), "Read only")
    assert.include(await visitor.page.locator(".consent-abilities + p").innerText(), "wait for an owner's or admin's approval")
    await visitor.page.unroute(requests)

    const seen = callback.count()
    await visitor.page.getByRole("button", { name: "Deny" }).click()
    const answer = await callback.next(seen)
    assert.strictEqual(answer.get("error"), "access_denied")
    assert.strictEqual(answer.get("state"), second.kept.state)
    assert.isNull(answer.get("code"))
    await visitor.page.getByText("You may close this page.").waitFor()
    wentOnlyToCallback()
    await visitor.context.close()
  })

  it("says in words when the request is unknown or gone, and when the address has none", async () => {
    await page.goto(herald.url("/app/oauth/consent?request=oar_unknown"))
    await page.getByText("This request cannot be used").waitFor()
    assert.include(await page.locator("main").innerText(), "It has expired")
    assert.strictEqual(await page.getByRole("button", { name: "Allow" }).count(), 0)
    await accessible(page)
    await page.goto(herald.url("/app/oauth/consent"))
    await page.getByText("This address has no authorization request in it.").waitFor()
    await accessible(page)
  })
})
