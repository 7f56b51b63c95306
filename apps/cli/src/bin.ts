#!/usr/bin/env node
import { Effect, Logger } from "effect"
import { Command } from "effect/cli"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { herald } from "./Commands.ts"

// Logs go to stderr so that stdout carries only the command's result (one JSON document with --json).
herald.pipe(
  Command.run({ version: "0.1.0" }),
  Effect.provideService(Logger.LogToStderr, true),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
