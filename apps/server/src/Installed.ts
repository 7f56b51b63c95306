import { Context } from "effect"
import type { Simulator } from "@herald/adapter-kit"

/** What was installed: whether this is the sandbox, and the simulators it serves (tests drive them). */
export class Installed extends Context.Service<Installed, {
  readonly sandbox: boolean
  readonly simulators: ReadonlyArray<Simulator.Simulator>
}>()("@herald/server/Installed") {}
