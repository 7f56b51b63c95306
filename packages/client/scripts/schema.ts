// The API half's types, rendered from the REST contract in packages/api through its OpenAPI document,
// made for the server's installed networks (their post options), the same document the server serves at
// /api/v1/openapi.json. Shared by generate.ts, which writes
// src/api/schema.ts, and by the freshness test, which compares that file with what this renders now.
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import { OpenApi } from "effect/http-api"
import { Effect } from "effect"
import { api } from "../../../apps/server/src/InstalledApi.ts"

export const schemaPath = new URL("../src/api/schema.ts", import.meta.url)

const header = `// Generated from packages/api's OpenAPI document by packages/client/scripts/generate.ts. Do not edit:
// change the contract in packages/api, then run \`npx -y pnpm@12.21.0 generate:client\`.
`

export const render = async (): Promise<string> => {
  const document = OpenApi.fromApi(await Effect.runPromise(api)) as unknown as OpenAPI3
  const ast = await openapiTS(document, { silent: true, alphabetize: false })
  return header + "\n" + astToString(ast)
}
