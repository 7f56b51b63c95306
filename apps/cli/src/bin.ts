#!/usr/bin/env node
import { Effect, Logger } from "effect"
import { CliOutput, Command } from "effect/cli"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { herald } from "./Commands.ts"
import * as Output from "./Output.ts"

// Logs go to stderr so that stdout carries only the command's result (one JSON document with --json), one
// logfmt line per entry so that they can be searched and parsed (`level=INFO message="publish attempt" ...`).
// With `--json`, even a call the parser refuses answers with one JSON document (see `Output.presenter`).
herald.pipe(
  Command.run({ version: "0.1.0" }),
  Effect.provide(CliOutput.layerPresenter(Output.presenter(process.argv.slice(2).includes("--json")))),
  Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatLogFmt)])),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
