import react from "@vitejs/plugin-react"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

// The console is served by apps/server under /app: hashed asset names there get long cache lifetimes and
// index.html none. The typed API client is read from packages/client's sources, so the console needs no
// build of that package first.
const typedClient = fileURLToPath(new URL("../../packages/client/src/api/index.ts", import.meta.url))
// Until packages/client's generated schema has the console's sign-in paths, the untyped stand-in.
const typed = false && existsSync(typedClient)

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/app/",
  plugins: [react()],
  resolve: {
    alias: {
      "@herald/client/api": typed ? typedClient : fileURLToPath(new URL("src/api/fallback.ts", import.meta.url))
    }
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    // Every byte is served by Herald itself: no inline data URLs for fonts or images the CSP would refuse.
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        entryFileNames: "assets/[name]-[hash].js",
        chunkFileNames: "assets/[name]-[hash].js",
        assetFileNames: "assets/[name]-[hash][extname]"
      }
    }
  },
  logLevel: "warn"
})
