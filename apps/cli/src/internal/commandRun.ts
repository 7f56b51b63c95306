import { Effect } from "effect"
import { Flag } from "effect/cli"
import { Admin } from "../Admin.ts"
import * as Backend from "../Backend.ts"
import * as Failures from "../Failures.ts"
import * as Output from "../Output.ts"

// What every command shares: the `--json` flag, how a failure is reported (in the requested form, exit code 1),
// the admin service that commands on a workspace's data go through, and the `--workspace` flag. Apart from the
// commands, so that every file of them reports the same way.

export const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print exactly one JSON document on stdout"),
  Flag.withDefault(false)
)

/** Runs a command's work and reports any failure in the requested form, with exit code 1. */
export const guarded = <A, E extends { readonly message: string }, R>(
  asJson: boolean,
  effect: Effect.Effect<A, E, R>
) =>
  effect.pipe(
    Effect.catch((error) => {
      const { code, message } = Failures.describe(error)
      return Output.failure(asJson, code, message).pipe(
        Effect.andThen(Effect.sync(() => {
          process.exitCode = 1
        }))
      )
    })
  )

export const withAdmin = <A, E extends { readonly message: string }>(
  asJson: boolean,
  use: (admin: Admin["Service"]) => Effect.Effect<A, E>
) => guarded(asJson, Effect.flatMap(Admin, use).pipe(Effect.provide(Backend.adminLayer), Effect.scoped))

export const workspaceFlag = Flag.String("workspace").pipe(Flag.withDescription("The workspace id (ws_...)"))
