import type { Limits } from "@herald/adapter-kit"
import * as Packages from "../Packages.ts"

/** Each installed package's README and the limits data its table is generated from, as Packages.ts lists them. */
export const sources: ReadonlyArray<{ readonly folder: string; readonly source: string; readonly limits: Limits.Limits }> = Packages
  .all.flatMap((entry) => entry.readme === undefined ? [] : [entry.readme])
