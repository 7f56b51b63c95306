import { Console, Effect, Option } from "effect"
import type { Main } from "@herald/server"

/** How the README tells a person to run the command line: the launcher at the repository's root. */
const invocation = "./herald"

/** What `herald start` prints for a person once the service runs. */
export const banner = (started: Main.Started): ReadonlyArray<string> =>
  started.role === "worker"
    ? [
      `Herald worker is running (${started.database} database, cluster runner on ${Option.getOrElse(started.runner, () => "")}).`,
      `  Networks: ${networks(started)}`,
      `  It publishes; the API is served by the processes with HERALD_ROLE=api or all.`,
      `  Probes: ${started.listening}/health, ${started.listening}/ready and ${started.listening}/metrics`
    ]
    : [
      `Herald is running (${started.database} database, listening on ${started.listening}${
        started.role === "api" ? "; publishing is left to workers" : ""
      }).`,
      `  Networks: ${networks(started)}`,
      `  API:   ${started.api}`,
      `  Docs:  ${started.docs}`,
      `  MCP:   ${started.mcp}`,
      ...Option.match(started.firstRun, {
        onNone: () => [],
        onSome: ({ accounts, consoleLink, key, workspace }) => [
          "",
          `First run: created the workspace "${workspace.name}" (${workspace.id}).`,
          `Its API key, shown only this once:`,
          ``,
          `  ${key.key}`,
          ``,
          `Console: ${consoleLink}`,
          `  (signs in its owner owner@demo.example once, within 7 days, and asks for a password)`,
          ``,
          ...(accounts.length === 0
            ? []
            : [`Sandbox accounts: ${accounts.map((account) => `@${account.username} (${account.platform}, ${account.id})`).join(", ")}`, ``]),
          `Try it: curl -H "Authorization: Bearer ${key.key}" ${started.api}/accounts`
        ]
      }),
      // The first run's key was shown once; a later start says how to make another.
      ...Option.match(started.laterStart, {
        onNone: () => [],
        onSome: ({ demo }) => [
          Option.match(demo, {
            onNone: () => `  Key:   ${invocation} key create --workspace <id> makes one (${invocation} workspace list shows the ids)`,
            onSome: (workspace) =>
              `  Key:   ${invocation} key create --workspace ${workspace.id} makes one for the ${workspace.name} workspace ` +
              `(${invocation} workspace list shows the others)`
          }),
          `  Console: ${invocation} member login-link --workspace <id> --email <e-mail> prints a sign-in link`
        ]
      })
    ]

const networks = (started: Main.Started) =>
  `${started.networks.join(", ") || "none configured"}${started.sandbox ? " (sandbox)" : ""}`

/**
 * Once a signal (Ctrl-C, a service manager's SIGTERM) has stopped the service and everything it ran has
 * closed: one line for a person on stdout, a log line with `--json` (whose stdout holds one document), and
 * exit code 0, since stopping is how a server is meant to end (`bin.ts` reads the code on interruption).
 */
export const stopped = (json: boolean) =>
  Effect.andThen(
    json ? Effect.logInfo("Herald stopped") : Console.log("Herald stopped."),
    Effect.sync(() => {
      process.exitCode = 0
    })
  )
