import { Console, Effect } from "effect"
import { CliOutput } from "effect/cli"

const encodeJson = (value: unknown) => JSON.stringify(value)

/** Prints the command's one result: the JSON document with `--json`, else the lines for a person. */
export const result = (json: boolean, value: unknown, human: () => ReadonlyArray<string>) =>
  json ? Console.log(encodeJson(value)) : Effect.forEach(human(), (line) => Console.log(line), { discard: true })

/** A failure in the API's error shape on stdout with `--json`, else a sentence on stderr. */
export const failure = (json: boolean, code: string, message: string) =>
  json ? Console.log(encodeJson({ error: { code, message } })) : Console.error(`herald: ${message}`)

/**
 * What the command-line parser shows: with `--json` anywhere in the arguments, a call it cannot parse (a
 * flag without its value, a required flag missing, an unknown flag) is one JSON document in the API's
 * error shape on stdout, naming what is wrong, instead of the help text; without it, the parser's own help
 * and errors. A command that needs a subcommand is `invalid` too.
 */
export const presenter = (json: boolean): CliOutput.Presenter => ({
  present: (event) => {
    if (!json || event._tag === "Version" || (event._tag === "Help" && event.reason === "Requested")) {
      return CliOutput.defaultPresenter.present(event)
    }
    const command = ["herald", ...event.commandPath.slice(1)].join(" ")
    const message = event._tag === "InvalidInvocation"
      ? event.errors.map((error) => error.message).join("; ")
      : `${command} needs a subcommand; see ${command} --help`
    // The parser exits 0 after help it was not asked for; a refused call is a failure.
    return Effect.andThen(failure(true, "invalid", message), Effect.sync(() => {
      process.exitCode = 1
    }))
  }
})
