import react from "@vitejs/plugin-react"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

// The console is served by apps/server under /app: hashed asset names there get long cache lifetimes and
// index.html none. The typed API client is read from packages/client's sources, so the console needs no
// build of that package first. The post lifecycle and the permission table are the domain's own, bundled from
// their sources (decision 0085): the console restates no status rule and no role's reach.
const typedClient = fileURLToPath(new URL("../../packages/client/src/api/index.ts", import.meta.url))
const postStatus = fileURLToPath(new URL("../../packages/domain/src/PostStatus.ts", import.meta.url))
const permissions = fileURLToPath(new URL("../../packages/domain/src/Permissions.ts", import.meta.url))

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/app/",
  plugins: [react()],
  resolve: {
    alias: {
      "@herald/client/api": typedClient,
      "@herald/domain/PostStatus": postStatus,
      "@herald/domain/Permissions": permissions
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
  // React's production build even when the build runs inside vitest (NODE_ENV=test).
  define: command === "build" ? { "process.env.NODE_ENV": JSON.stringify("production") } : {},
  logLevel: "warn"
}))
