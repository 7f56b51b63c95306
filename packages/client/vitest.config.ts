import { defineProject } from "vitest/config"
import { projectSettings } from "../../vitest.shared.ts"

export default defineProject({
  // Inside the repository `@herald/client` resolves to its TypeScript source (the `herald-source` export
  // condition, which tsconfig.base.json names too), so nothing has to be built first; outside, to dist/.
  // Vite's default server conditions, with ours first.
  ssr: { resolve: { conditions: ["herald-source", "module", "node", "development|production"] } },
  test: {
    name: "client",
    ...projectSettings
  }
})
