// A data folder whose embedded database is already made and migrated, for a test of the command line on a
// folder. A new folder costs its first command the database's creation and every migration (5 s on a quiet
// machine, 10 under load), which Start.test.ts covers as an operator meets it; a copy of a migrated folder
// costs a tenth of a second. The template is made by `herald migrate` in whichever test process first misses
// it, kept in the temp folder under the key of everything a migrated database depends on (the same key as
// the storage tests' template), and copied with its modes (owner-only, as Herald keeps a data folder).
import { onTestFinished } from "@effect/vitest"
import { execFile, execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { templateKey } from "@herald/db/testing"
import { patience } from "../../../vitest.shared.ts"

const bin = resolve(import.meta.dirname, "../src/bin.ts")

const makeTemplate = async () => {
  const key = await Effect.runPromise(templateKey.pipe(Effect.provide(NodeServices.layer)))
  const template = join(tmpdir(), `herald-cli-data-template-${key}`)
  if (existsSync(template)) return template
  // Made aside and renamed, so a test process running beside never copies half a folder.
  const partial = mkdtempSync(`${template}.`)
  await new Promise<void>((done, fail) => {
    const env = { ...process.env, BASE_URL: "", DATABASE_URL: "", HERALD_DATA_DIR: partial }
    execFile(process.execPath, [bin, "migrate", "--json"], { env, timeout: patience }, (error, _stdout, stderr) =>
      error === null ? done() : fail(new Error(`herald migrate for the data folder template: ${stderr}`)))
  })
  try {
    renameSync(partial, template)
  } catch (error) {
    // Another test process made it first.
    rmSync(partial, { recursive: true, force: true })
    if (!existsSync(template)) throw error
  }
  return template
}

let template: Promise<string> | undefined

/** A new data folder (`prefix` names it in the temp folder) holding a migrated, empty database. */
export const migratedDataFolder = async (prefix = "herald-cli-") => {
  template ??= makeTemplate()
  const folder = mkdtempSync(join(tmpdir(), prefix))
  execFileSync("cp", ["-a", join(await template, "pgdata"), folder])
  return folder
}

/** `migratedDataFolder` for one test, removed once the test has finished. */
export const testDataFolder = async (prefix: string) => {
  const folder = await migratedDataFolder(prefix)
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}
