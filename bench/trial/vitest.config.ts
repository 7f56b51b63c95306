import { resolve } from "node:path"
import { defineConfig } from "vitest/config"

// The five-bug trial's one file (bench/trial/run.ts writes it): the kit's folder as the root, so the
// throwaway adapter imports the kit as an adapter package would, and a JSON report for run.ts to read.
export default defineConfig({
  root: resolve(import.meta.dirname, "../../packages/adapter-kit"),
  test: {
    include: [".trial/*.test.ts"],
    reporters: ["json"],
    testTimeout: 240_000,
    hookTimeout: 240_000
  }
})
