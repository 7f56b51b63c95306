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
 * `method` is how the account connects: `oauth` (the only one today) sends the person to the network's
 * consent page through `GET /api/v1/accounts/connect/:platform`, with `fields` as its query parameters.
 * Other methods (credentials, an instance address) will come with their own; a client that does not know
 * a method says so rather than guessing.
 */
export class Connect extends Schema.Class<Connect>("Connect")({
  method: Schema.String,
  fields: Schema.Array(Field)
}) {}

/** A network connected through its OAuth consent page, asking nothing first. */
export const oauth = new Connect({ method: "oauth", fields: [] })
