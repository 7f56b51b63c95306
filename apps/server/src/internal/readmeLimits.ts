import type { ApiVersion, Limits, SimulatorRules } from "@herald/adapter-kit"
import * as Packages from "../Packages.ts"

/**
 * Each installed package's README and the data its limits section is generated from (the limits, and the API
 * version with its sunset), as Packages.ts lists them.
 */
export const sources: ReadonlyArray<{
  readonly folder: string
  readonly source: string
  readonly limits: Limits.Limits
  readonly api: ApiVersion.ApiVersion
  /** The simulator's table of the network's rules, and the file it is in. */
  readonly rules?: { readonly source: string; readonly table: SimulatorRules.Table }
}> = Packages
  .all.flatMap((entry) => entry.readme === undefined ? [] : [entry.readme])
