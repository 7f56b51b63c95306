import { Schema, SchemaTransformation } from "effect"

/**
 * The payloads of a body whose fields are all optional and which a client may also leave out: a POST with no
 * body at all (as `curl -X POST` sends) reads as `{}` rather than `400 Expected object`. HttpApi decodes an
 * empty JSON body as `null` when one of an endpoint's payloads is encoded as null; that one decodes to `{}`.
 */
export const orEmpty = <const Fields extends Schema.Struct.Fields>(body: Schema.Struct<Fields>) =>
  [
    body,
    Schema.Null.pipe(Schema.decodeTo(
      Schema.toType(body),
      SchemaTransformation.transform({
        decode: () => ({}) as Schema.Struct<Fields>["Type"],
        encode: () => null
      })
    ))
  ] as const
