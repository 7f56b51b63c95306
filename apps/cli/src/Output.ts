import { Console, Effect } from "effect"

const encodeJson = (value: unknown) => JSON.stringify(value)

/** Prints the command's one result: the JSON document with `--json`, else the lines for a person. */
export const result = (json: boolean, value: unknown, human: () => ReadonlyArray<string>) =>
  json ? Console.log(encodeJson(value)) : Effect.forEach(human(), (line) => Console.log(line), { discard: true })

/** A failure in the API's error shape on stdout with `--json`, else a sentence on stderr. */
export const failure = (json: boolean, code: string, message: string) =>
  json ? Console.log(encodeJson({ error: { code, message } })) : Console.error(`herald: ${message}`)
