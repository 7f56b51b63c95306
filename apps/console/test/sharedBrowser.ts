import type { TestProject } from "vitest/node"
import { chromiumMissing, launchChromiumServer } from "./chromium.ts"

// Once per run of the console's tests: one headless Chromium for every file, which each file reaches with
// `chromium.connect` (harness.ts `useConsole`) to make browser contexts of its own, each with its own
// cookies, storage and permissions (the clipboard is the browser's: harness.ts `withClipboard`), instead of
// a browser started by each file.

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Where the files reach the run's browser, or why it did not start; undefined where there is no Chromium
     * (the files then skip, saying so: harness.ts `missing`).
     */
    consoleBrowser: { readonly endpoint: string } | { readonly failed: string } | undefined
  }
}

export default async function setup(project: TestProject) {
  if (chromiumMissing !== undefined) {
    project.provide("consoleBrowser", undefined)
    return
  }
  const server = await launchChromiumServer().catch((error: unknown) => String(error))
  if (typeof server === "string") {
    // A browser that is there but does not start fails the files' set-up with its reason: a skip would
    // read as a machine without one.
    project.provide("consoleBrowser", { failed: server })
    return
  }
  project.provide("consoleBrowser", { endpoint: server.wsEndpoint() })
  return () => server.close()
}
