#!/usr/bin/env node
// First, before the app loads: `herald` rather than `MainThread` in ps and top, and an owner-only umask.
import "./internal/processSetup.ts"
import { Cause, Effect, Exit, Runtime } from "effect"
import { CliOutput, Command } from "effect/cli"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Settings } from "@herald/core"
import { herald } from "./Commands.ts"
import * as Failures from "./Failures.ts"
import * as Logging from "./Logging.ts"
import * as Output from "./Output.ts"

// A command a signal ends exits 130 (interrupted), unless it set its exit code on the way out: `herald
// start` sets 0 once it has stopped, since a signal is how a server is asked to end.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) && process.exitCode === 0
    ? onExit(0)
    : Runtime.defaultTeardown(exit, onExit)

const json = process.argv.slice(2).includes("--json")

// The log's format (see `Logging`) is read before anything can log, through the same parser as every
// setting: a bad value stops every command with the setting's message (in the error shape with --json), as
// a bad PORT stops `start`.
const refuse = (error: Settings.InvalidSetting) => {
  const { code, message } = Failures.describe(error)
  return Output.failure(json, code, message).pipe(Effect.andThen(Effect.sync(() => {
    process.exitCode = 1
  })))
}

// With `--json`, even a call the parser refuses answers with one JSON document (see `Output.presenter`).
Effect.matchEffect(Settings.logFormat, {
  onFailure: refuse,
  onSuccess: (format) =>
    herald.pipe(
      Command.run({ version: "0.1.0" }),
      Effect.provide(CliOutput.layerPresenter(Output.presenter(json))),
      Effect.provide(Logging.layer(format))
    )
}).pipe(
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ teardown })
)
