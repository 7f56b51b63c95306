#!/usr/bin/env node
// First, before the app loads: `herald` rather than `MainThread` in ps and top.
import "./internal/processTitle.ts"
import { Cause, Effect, Exit, Logger, Runtime } from "effect"
import { CliOutput, Command } from "effect/cli"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { herald } from "./Commands.ts"
import * as Output from "./Output.ts"

// A command a signal ends exits 130 (interrupted), unless it set its exit code on the way out: `herald
// start` sets 0 once it has stopped, since a signal is how a server is asked to end.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) && process.exitCode === 0
    ? onExit(0)
    : Runtime.defaultTeardown(exit, onExit)

// Logs go to stderr so that stdout carries only the command's result (one JSON document with --json), one
// logfmt line per entry so that they can be searched and parsed (`level=INFO message="publish attempt" ...`).
// With `--json`, even a call the parser refuses answers with one JSON document (see `Output.presenter`).
herald.pipe(
  Command.run({ version: "0.1.0" }),
  Effect.provide(CliOutput.layerPresenter(Output.presenter(process.argv.slice(2).includes("--json")))),
  Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatLogFmt)])),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ teardown })
)
