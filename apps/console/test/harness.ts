// The console's end-to-end harness: a real Herald on a data folder of its own, headless Chromium through
// playwright-core (one for the whole run, sharedBrowser.ts), and the checks every page must pass (no other
// host, axe-core, optional screenshots).
//
//   useConsole(async (run) => {                   // beforeAll: ./herald start --json (PORT=0, temp data folder)
//     ({ herald, browser } = run)                 // and the run's Chromium; afterAll: Herald stopped, the
//     page = await signInAsOwner(browser, herald) // file's contexts closed; afterEach: no page asked another
//   })                                            // host or threw
//   const { page } = await browser.open(herald)   // a fresh context; records requests to other hosts
//   await page.goto(herald.url("/app/sign-in"))
//   await checkPage(page, "sign-in")              // axe: no serious/critical; screenshot docs/console/sign-in.png
import { afterAll, afterEach, assert, beforeAll } from "@effect/vitest"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { inject } from "vitest"
import { chromiumMissing, chromiumPath, launchChromium } from "./chromium.ts"
import { patience } from "../../../vitest.shared.ts"
import { migratedDataFolder } from "../../cli/test/dataFolder.ts"

const repository = resolve(import.meta.dirname, "../../..")

/**
 * Why the browser tests cannot run here, or undefined. Test files `describe(name, skipIf(missing), ...)`;
 * the run's closing report says it once (testing/TestsNotRun.ts).
 */
export const missing = chromiumMissing

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  readonly json: any
}

export interface Herald {
  /** The service's own origin, as links and cookies name it: http://localhost:<port>. */
  readonly origin: string
  /** What `herald start --json` printed (firstRun.key.key is the Demo workspace's API key). */
  readonly started: any
  /** The first run's one-time console link, signing in the Demo owner. */
  readonly consoleLink: string
  readonly url: (path: string) => string
  /** `./herald <args>` against this Herald's data folder (admin commands reach the running server). */
  readonly cli: (...args: ReadonlyArray<string>) => Promise<Run>
  /** /api/v1 with the Demo key (or another): JSON in, status and JSON out. */
  readonly api: (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; body: any }>
  readonly stop: () => Promise<void>
}

/** `env`: settings for this Herald on top of the test's (`{ HERALD_WEBHOOK_ALLOW_PRIVATE: "true" }`). */
export const startHerald = async (options: { readonly env?: Readonly<Record<string, string>> } = {}): Promise<Herald> => {
  // Its database made and migrated before (a copy: the command line's tests make it once); the first start
  // still makes the Demo workspace and its console link.
  const dataDir = await migratedDataFolder("herald-console-")
  // Vitest puts Vite's BASE_URL ("/") into the environment; Herald would read it as its own.
  const env = { ...process.env, BASE_URL: "", HERALD_DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", HERALD_SMTP_URL: "", ...options.env }
  const server: ChildProcess = spawn(join(repository, "herald"), ["start", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] })
  let errors = ""
  server.stderr!.on("data", (chunk) => (errors = (errors + String(chunk)).slice(-4000)))
  const started = await new Promise<any>((resolveStart, reject) => {
    createInterface({ input: server.stdout! }).once("line", (line) => {
      try {
        resolveStart(JSON.parse(line))
      } catch (error) {
        reject(new Error(`herald start printed no JSON: ${line}\n${errors}`))
      }
    })
    server.once("exit", (code) => reject(new Error(`herald start exited with ${code}\n${errors}`)))
  })
  const origin = new URL(started.api).origin
  const consoleLink: string = started.consoleLink ?? started.firstRun?.consoleLink ?? ""
  const cli = (...args: ReadonlyArray<string>) =>
    new Promise<Run>((resolveRun) => {
      execFile(join(repository, "herald"), [...args], { env, timeout: patience }, (error, stdout, stderr) => {
        let json: unknown = undefined
        try {
          json = JSON.parse(stdout)
        } catch {
          json = undefined
        }
        resolveRun({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr, json })
      })
    })
  const api = async (method: string, path: string, body?: unknown, key: string = started.firstRun.key.key) => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  const stop = () =>
    new Promise<void>((resolveStop) => {
      const done = () => {
        rmSync(dataDir, { recursive: true, force: true })
        resolveStop()
      }
      if (server.exitCode !== null || server.signalCode !== null) return done()
      server.once("exit", done)
      server.kill("SIGTERM")
    })
  return { origin, started, consoleLink, url: (path) => `${origin}${path}`, cli, api, stop }
}

export interface ConsoleBrowser {
  /** A new browser context (its own cookies: a second person or a second session) and a page in it. */
  readonly open: (herald: Herald, options?: { readonly width?: number; readonly height?: number }) => Promise<{ context: BrowserContext; page: Page }>
  /** Every request any page made to a host other than Herald's, since the last call; then forgotten. */
  readonly otherHosts: () => ReadonlyArray<string>
  /** Uncaught errors in any page's scripts, since the last call; then forgotten. */
  readonly pageErrors: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

const consoleBrowser = (browser: Browser): ConsoleBrowser => {
  let elsewhere: Array<string> = []
  let errors: Array<string> = []
  return {
    open: async (herald, options) => {
      const own = new URL(herald.origin).host
      const context = await browser.newContext({
        viewport: { width: options?.width ?? 1280, height: options?.height ?? 800 },
        // The clipboard, for copy buttons (the browser's one clipboard: `withClipboard`).
        permissions: ["clipboard-read", "clipboard-write"]
      })
      // Attempts, not successes: the machine may have no internet, and a page that tries is the fault.
      context.on("request", (request) => {
        const url = new URL(request.url())
        if ((url.protocol === "http:" || url.protocol === "https:") && url.host !== own) elsewhere.push(request.url())
      })
      // A step that waits longer than this has failed; say so before the test's own timeout (a third of
      // the tests' patience: a minute on a slow machine).
      context.setDefaultTimeout(patience / 3)
      const page = await context.newPage()
      page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`))
      return { context, page }
    },
    otherHosts: () => {
      const seen = elsewhere
      elsewhere = []
      return seen
    },
    pageErrors: () => {
      const seen = errors
      errors = []
      return seen
    },
    // A browser reached with `connect` is only let go of, with the contexts this file made in it.
    close: async () => {
      await browser.close()
    }
  }
}

/** A browser of this process's own (the console bench's). */
export const launchBrowser = async (): Promise<ConsoleBrowser> => consoleBrowser(await launchChromium())

/** The run's browser (sharedBrowser.ts), reached from a test file. */
const runBrowser = async (): Promise<Browser> => {
  const shared = inject("consoleBrowser")
  if (shared === undefined) throw new Error(`no browser to run the console's tests in: ${missing}`)
  if ("failed" in shared) throw new Error(`Chromium at ${chromiumPath} did not start: ${shared.failed}`)
  return chromium.connect(shared.endpoint)
}

/**
 * `use` with the clipboard to itself: every context of the run's browser shares one clipboard, and two test
 * files run at once, so a copy and the read that checks it hold a lock that no other file takes meanwhile
 * (a folder in the temp folder named for the run's browser, made by one process at a time).
 */
export const withClipboard = async <A>(use: () => Promise<A>): Promise<A> => {
  const run = createHash("sha256").update(JSON.stringify(inject("consoleBrowser"))).digest("hex").slice(0, 16)
  const lock = join(tmpdir(), `herald-console-clipboard-${run}`)
  const until = Date.now() + patience
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    if (Date.now() > until) throw new Error(`the clipboard was not free within ${patience / 1000} s (${lock})`)
    await new Promise((wait) => setTimeout(wait, 50))
  }
  try {
    return await use()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export interface ConsoleRun {
  readonly herald: Herald
  readonly browser: ConsoleBrowser
}

/**
 * A test file's Herald (with `env`) and its hold on the run's browser: taken before its tests and handed to
 * `started` (which keeps what the tests use), let go of after them (Herald stopped, the file's contexts
 * closed); and after each test, the check that no page asked anything of another host (fonts, icons and
 * scripts all come from Herald) nor threw.
 */
export const useConsole = (
  started: (run: ConsoleRun) => Promise<void> | void,
  options: { readonly env?: Readonly<Record<string, string>> } = {}
) => {
  let herald: Herald | undefined
  let browser: ConsoleBrowser | undefined
  beforeAll(async () => {
    // Both at once; what did start is stopped after, whatever did not.
    const [heraldStarted, browserReached] = await Promise.allSettled([startHerald(options), runBrowser().then(consoleBrowser)])
    if (heraldStarted.status === "fulfilled") herald = heraldStarted.value
    if (browserReached.status === "fulfilled") browser = browserReached.value
    if (heraldStarted.status === "rejected") throw heraldStarted.reason
    if (browserReached.status === "rejected") throw browserReached.reason
    await started({ herald: heraldStarted.value, browser: browserReached.value })
  })
  afterAll(async () => {
    await browser?.close()
    await herald?.stop()
  })
  afterEach(() => {
    assert.deepStrictEqual(browser?.otherHosts(), [])
    assert.deepStrictEqual(browser?.pageErrors(), [])
  })
}

/** The password `signInAsOwner` gives the Demo owner. */
export const ownerPassword = "correct horse battery staple"

/**
 * A page in a new context where the Demo owner has signed in through the first-run link and set
 * `ownerPassword`, now on Accounts. The link works once: once per Herald.
 */
export const signInAsOwner = async (browser: ConsoleBrowser, herald: Herald): Promise<Page> => {
  const { page } = await browser.open(herald)
  await page.goto(herald.consoleLink)
  await page.getByLabel("New password").fill(ownerPassword).catch(async (error) => {
    throw new Error(`${error}\nThe page said: ${await page.locator("body").innerText()}`)
  })
  await page.getByRole("button", { name: "Set password" }).click()
  await page.getByRole("heading", { name: "Accounts", level: 1, exact: true }).waitFor()
  return page
}

const axeSource = join(repository, "node_modules", "axe-core", "axe.min.js")
const screenshots = join(repository, "docs", "console")

export interface Violation {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/**
 * The checks for a page as it now shows: axe-core's serious and critical violations (returned, for the test
 * to assert empty), and with HERALD_SCREENSHOTS=1 and a name, a full-page screenshot in docs/console/<name>.png
 * (leave the name out for a page whose screenshot another test owns).
 */
export const checkPage = async (page: Page, name?: string): Promise<ReadonlyArray<Violation>> => {
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') rightly refuses an
  // injected <script>, and must stay on for the test to see what a person's browser sees.
  await page.evaluate(readFileSync(axeSource, "utf8"))
  const violations: ReadonlyArray<Violation> = await page.evaluate(async () => {
    // Runs in the page, where axe-core has just been loaded.
    const axe = (globalThis as any).axe
    const result = await axe.run((globalThis as any).document, { resultTypes: ["violations"] })
    return result.violations
      .filter((violation: any) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation: any) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node: any) => node.target.join(" "))
      }))
  })
  if (name !== undefined && process.env["HERALD_SCREENSHOTS"] === "1") {
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true })
  }
  return violations
}
