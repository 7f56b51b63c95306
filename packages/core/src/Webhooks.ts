import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Ids as DomainIds, Webhook } from "@herald/domain"
import { randomBytes } from "node:crypto"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { Cipher } from "./Cipher.ts"
import * as Ids from "./Ids.ts"
import { checkWebhookUrl } from "./internal/publicAddress.ts"
import { hold, release } from "./internal/webhookHolding.ts"
import { HostLookup } from "./WebhookHttp.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { endpointStatements, type EndpointRow } from "./internal/webhookEndpointRows.ts"

/** The request breaks rules: every problem, as one message and as data. */
export class WebhookInvalid extends Schema.TaggedError<WebhookInvalid>()("WebhookInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", { endpointId: Schema.String }) {
  override get message() {
    return `Webhook endpoint ${this.endpointId} does not exist`
  }
}

export class WebhookConflict extends Schema.TaggedError<WebhookConflict>()("WebhookConflict", { message: Schema.String }) {}

export interface CreateInput {
  readonly url: string
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
}

export interface UpdateInput {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly enabled?: boolean | undefined
}

export interface Options {
  /** `http://` and private addresses allowed (development only). */
  readonly allowPrivate: boolean
  /** Failed events in a row that switch an endpoint off (the sender's setting), to say why one is off. */
  readonly disableAfter?: number | undefined
}

/** At most this many endpoints per workspace (product.md, "Webhooks"). */
export const maxEndpoints = 10

/** The sender's default switch-off count (HERALD_WEBHOOK_DISABLE_AFTER). */
const defaultDisableAfter = 50

const endpointOf = (disableAfter: number) => (row: EndpointRow) =>
  new Webhook.Endpoint({
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    failures: row.consecutiveFailures,
    // The sender switches an endpoint off only when its count reaches the setting; a switch-off by hand keeps
    // the count it had, below that.
    switchedOff: row.enabled ? null : row.consecutiveFailures >= disableAfter ? "failures" : "by_hand",
    disabledAt: row.enabled || row.disabledAt === null ? null : row.disabledAt,
    createdAt: row.createdAt
  })

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`

const known = new Set<string>(Webhook.EventKinds)

/**
 * Webhook endpoints of a workspace: where its events go. The URL is checked when saved (https, public
 * addresses only) and again by the sender at every connection; the signing secret is sealed at rest and
 * shown only when it is made.
 */
export class Webhooks extends Context.Service<Webhooks, {
  create(workspaceId: string, input: CreateInput): Effect.Effect<
    Webhook.EndpointWithSecret,
    WebhookInvalid | WebhookConflict
  >
  list(workspaceId: string): Effect.Effect<ReadonlyArray<Webhook.Endpoint>>
  get(workspaceId: string, endpointId: string): Effect.Effect<Webhook.Endpoint, WebhookNotFound>
  update(workspaceId: string, endpointId: string, input: UpdateInput): Effect.Effect<
    Webhook.Endpoint,
    WebhookInvalid | WebhookNotFound
  >
  remove(workspaceId: string, endpointId: string): Effect.Effect<void, WebhookNotFound>
  rotateSecret(workspaceId: string, endpointId: string): Effect.Effect<
    Webhook.EndpointWithSecret,
    WebhookNotFound
  >
}>()("@herald/core/Webhooks") {
  static readonly layer = (options: Options) =>
    Layer.effect(
      Webhooks,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const cipher = yield* Cipher
        const lookup = yield* HostLookup
        const toEndpoint = endpointOf(options.disableAfter ?? defaultDisableAfter)
        const { endpointCount, endpointCreated, endpointIn, endpointLocked, endpointsOf, endpointUpdated, secretRotated } =
          endpointStatements(sql)

        // Every problem of the fields sent, so a client fixes them in one go.
        const check = Effect.fnUntraced(function*(input: UpdateInput) {
          const problems: Array<{ field: string; message: string }> = []
          let url: string | undefined
          if (input.url !== undefined) {
            if (input.url.length > 2048) {
              problems.push({ field: "url", message: "url is longer than 2,048 characters" })
            } else {
              const checked = yield* Effect.result(checkWebhookUrl(input.url, { allowPrivate: options.allowPrivate, lookup }))
              if (checked._tag === "Failure") problems.push({ field: "url", message: checked.failure.message })
              else url = checked.success.toString()
            }
          }
          const events = input.events === undefined ? undefined : [...new Set(input.events)]
          const unknown = events?.filter((event) => !known.has(event)) ?? []
          if (unknown.length > 0) {
            problems.push({
              field: "events",
              message: `Unknown event ${unknown.map((event) => `"${event}"`).join(", ")}; known: ${Webhook.EventKinds.join(", ")}`
            })
          }
          if (typeof input.description === "string" && input.description.length > 1000) {
            problems.push({ field: "description", message: "description is longer than 1,000 characters" })
          }
          return { problems, url, events }
        })

        const one = (workspaceId: string, endpointId: string) =>
          Effect.flatMap(
            dieOnBadRow(endpointIn({ workspaceId, endpointId })),
            Option.match({
              onNone: () => Effect.fail(new WebhookNotFound({ endpointId })),
              onSome: (row) => Effect.succeed(toEndpoint(row))
            })
          )

        const create = Effect.fn("Webhooks.create")(function*(workspaceId: string, input: CreateInput) {
          const checked = yield* check(input)
          if (checked.problems.length > 0) return yield* new WebhookInvalid({ problems: checked.problems })
          const id = yield* Ids.make(DomainIds.prefixes.webhookEndpoint)
          const secret = newSecret()
          return yield* sql.withTransaction(Effect.gen(function*() {
            // The workspace row is the lock that keeps two creates at once from making an eleventh.
            yield* sql`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`
            const count = yield* dieOnBadRow(endpointCount(workspaceId))
            if (Number(Option.match(count, { onNone: () => 0, onSome: (row) => row.count })) >= maxEndpoints) {
              return yield* new WebhookConflict({
                message: `This workspace has ${maxEndpoints} webhook endpoints, the most it can have; delete one first`
              })
            }
            const row = yield* Effect.orDie(endpointCreated({
              id,
              workspaceId,
              url: checked.url!,
              events: JSON.stringify(checked.events ?? []),
              description: input.description ?? null,
              secret: cipher.seal(Redacted.make(secret))
            }))
            return new Webhook.EndpointWithSecret({ ...toEndpoint(row), secret })
          }))
        })

        const list = Effect.fn("Webhooks.list")(function*(workspaceId: string) {
          const rows = yield* dieOnBadRow(endpointsOf(workspaceId))
          return rows.map(toEndpoint)
        })

        const get = Effect.fn("Webhooks.get")(function*(workspaceId: string, endpointId: string) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          return yield* one(workspaceId, endpointId)
        })

        const update = Effect.fn("Webhooks.update")(function*(workspaceId: string, endpointId: string, input: UpdateInput) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          const checked = yield* check(input)
          if (checked.problems.length > 0) return yield* new WebhookInvalid({ problems: checked.problems })
          const now = yield* Clock.currentTimeMillis
          // The endpoint's row is locked first, so a switch-off or on and what it does to the endpoint's
          // messages happen together, and not in the middle of the sender's switch-off (decision 0011).
          return yield* sql.withTransaction(Effect.gen(function*() {
            const locked = yield* dieOnBadRow(endpointLocked({ workspaceId, endpointId }))
            if (Option.isNone(locked)) return yield* new WebhookNotFound({ endpointId })
            const before = locked.value
            // The row is locked and there: the update returns it.
            const row = yield* Effect.orDie(endpointUpdated({
              endpointId,
              url: checked.url ?? null,
              events: checked.events === undefined ? undefined : JSON.stringify(checked.events),
              description: input.description,
              enabled: input.enabled
            }))
            // Switched off: its events are kept. Switched on: the kept ones go out, oldest first.
            if (input.enabled === false && before.enabled) yield* hold(sql, endpointId, { failedSinceLastSuccess: false })
            if (input.enabled === true && !before.enabled) yield* release(sql, endpointId, now)
            return toEndpoint(row)
          }))
        })

        const remove = Effect.fn("Webhooks.remove")(function*(workspaceId: string, endpointId: string) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          const rows = yield* sql`DELETE FROM webhook_endpoints WHERE id = ${endpointId} AND workspace_id = ${workspaceId} RETURNING id`
          if (rows.length === 0) return yield* new WebhookNotFound({ endpointId })
        })

        const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function*(workspaceId: string, endpointId: string) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          const secret = newSecret()
          const row = yield* dieOnBadRow(secretRotated({ workspaceId, endpointId, secret: cipher.seal(Redacted.make(secret)) }))
          if (Option.isNone(row)) return yield* new WebhookNotFound({ endpointId })
          return new Webhook.EndpointWithSecret({ ...toEndpoint(row.value), secret })
        })

        return Webhooks.of(DieOnSql.service({ create, list, get, update, remove, rotateSecret }))
      })
    )
}
