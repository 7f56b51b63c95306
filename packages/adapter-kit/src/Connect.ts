import { Schema } from "effect"

// How a person connects an account of a network, as data: the console (and any other client) renders
// its connect control from this, so a network added later with another way in needs no client change.

/** Something to ask the person before connecting (an instance address, an app password, ...). */
export class Field extends Schema.Class<Field>("ConnectField")({
  /** The parameter it is sent as. */
  name: Schema.String,
  /** Its label for people. */
  label: Schema.String,
  /** What to write there, for people. */
  hint: Schema.optionalKey(Schema.String),
  required: Schema.Boolean,
  /** A password or token: shown masked, never echoed. */
  secret: Schema.Boolean
}) {}

/**
 * `method` is how the account connects:
 * - `oauth` sends the person to the network's consent page through `POST /api/v1/accounts/connect/:platform`,
 *   with `fields` in its body. A `server` field (see `instance`) names the account's own server
 *   (a Mastodon instance): Herald registers itself there first (`OAuth.registerApp`) and reuses that.
 * - `credentials` signs in at once with what the person types: `POST /api/v1/accounts/connect` with
 *   `{ platform, fields }` (a handle and an app password), answered by the adapter's `Credentials.signIn`.
 * A client that does not know a method says so rather than guessing.
 */
export class Connect extends Schema.Class<Connect>("Connect")({
  method: Schema.String,
  fields: Schema.Array(Field)
}) {}

/** A network connected through its OAuth consent page, asking nothing first. */
export const oauth = new Connect({ method: "oauth", fields: [] })

/** The field that names the account's own server, for networks of many servers (Mastodon instances). */
export const serverField = new Field({
  name: "server",
  label: "Server",
  hint: "The address of the account's server, e.g. mastodon.social",
  required: true,
  secret: false
})

/** A network of many servers: OAuth on the server the person names, Herald's app registered there first. */
export const instance = new Connect({ method: "oauth", fields: [serverField] })

/** A network signed in to with what the person types (the fields it asks, secret ones masked). */
export const credentials = (fields: ReadonlyArray<Field>) => new Connect({ method: "credentials", fields })

/** Whether a connect method asks for the account's server (and the core stores it per account). */
export const asksServer = (connect: Connect) => connect.fields.some((field) => field.name === "server")
