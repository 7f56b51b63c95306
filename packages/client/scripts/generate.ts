// Writes packages/client/src/api/schema.ts from packages/api's contract.
//   npx -y pnpm@12.21.0 generate:client
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { render, schemaPath } from "./schema.ts"

const after = await render()
const before = (() => {
  try {
    return readFileSync(schemaPath, "utf8")
  } catch {
    return ""
  }
})()
if (after !== before) writeFileSync(schemaPath, after)
console.log(`${after === before ? "unchanged" : "updated  "} ${fileURLToPath(schemaPath)}`)
