// Headless Chromium for the tests that load Herald's pages in a browser (the console's, and the server's docs
// page): Debian's chromium, which CI installs (.ci), or the one HERALD_CHROMIUM names.
import { existsSync } from "node:fs"
import { type Browser, type BrowserServer, chromium } from "playwright-core"

export const chromiumPath = process.env["HERALD_CHROMIUM"] ?? "/usr/bin/chromium"

/** Why no browser test can run here, or undefined: the reason test files give `skipIf` (testing/skipIf.ts). */
export const chromiumMissing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath} (install Debian's chromium, or set HERALD_CHROMIUM)`

// playwright-core gives every launch a fresh temporary user-data folder of its own (and removes it).
const options = {
  executablePath: chromiumPath,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync"
  ]
}

/** A browser for this process alone. */
export const launchChromium = (): Promise<Browser> => chromium.launch(options)

/** A browser that other processes reach at its `wsEndpoint()` with `chromium.connect` (sharedBrowser.ts). */
export const launchChromiumServer = (): Promise<BrowserServer> => chromium.launchServer(options)
