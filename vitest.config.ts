import { defineConfig } from "vitest/config"

// One project per package; each package's own vitest.config.ts (when it has one) sets its timeouts.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "adapters/*"]
  }
})
