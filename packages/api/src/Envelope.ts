import { Schema } from "effect"
import { Bounded } from "@herald/domain"

/** A success body: `{ "data": ... }` (reference, "Endpoints"). */
export const Data = <S extends Schema.Top>(data: S) => Schema.Struct({ data })

/** A list body: `{ "data": [...], "nextCursor": string | null }` (product.md, "Ids, times, shapes"). */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item),
    nextCursor: Schema.NullOr(Schema.String).annotate({
      description: "Send it as cursor for the next page; null on the last page"
    })
  })

/** The `cursor` query parameter of a paged list. */
export const cursor = Bounded.Line.annotate({ description: "The previous page's nextCursor; absent for the first page" })
