import { Clock, Context, Deferred, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { ApiKey, Ids as DomainIds, Workspace } from "@herald/domain"
import { ApiKeyNotFound, MemberNotInWorkspace, Unauthenticated } from "./internal/apiKeyErrors.ts"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import * as KeyFormat from "./internal/apiKeyFormat.ts"
import { listenForEvictions } from "./internal/evictions.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"
import { WorkspaceNotFound, Workspaces } from "./Workspaces.ts"

export { ApiKeyNotFound, howToAuthenticate, MemberNotInWorkspace, Unauthenticated } from "./internal/apiKeyErrors.ts"

/** Who a request is: the workspace and the key it authenticated with. */
export interface Principal {
  readonly workspaceId: DomainIds.WorkspaceId
  readonly keyId: DomainIds.ApiKeyId
  /** The member a key acts for and that member's role; both null for a workspace key, which may do anything. */
  readonly memberId: DomainIds.MemberId | null
  readonly role: Workspace.Role | null
}

/** An `api_keys` row as `keyColumns` reads it, decoded rather than asserted (a row unlike it dies). */
const KeyRow = Schema.Struct({
  id: DomainIds.ApiKeyId,
  workspaceId: DomainIds.WorkspaceId,
  name: Schema.String,
  memberId: Schema.NullOr(DomainIds.MemberId),
  lastFour: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
})

const keyColumns = "id, workspace_id, name, member_id, last_four, created_at, last_used_at, revoked_at"

/** A key's row with its hash, which a revocation evicts from every process's cache by. */
const RevokedRow = Schema.Struct({ ...KeyRow.fields, hash: Schema.Uint8Array })

/** What authenticating a key reads: the key, and the role of the member it acts for (null for a workspace key). */
const LookupRow = Schema.Struct({
  id: DomainIds.ApiKeyId,
  workspaceId: DomainIds.WorkspaceId,
  revokedAt: Schema.NullOr(Timestamp),
  memberId: Schema.NullOr(DomainIds.MemberId),
  role: Schema.NullOr(Workspace.Role)
})

const toApiKey = (row: typeof KeyRow.Type) =>
  new ApiKey.ApiKey({
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    memberId: row.memberId,
    prefix: KeyFormat.displayPrefix,
    lastFour: row.lastFour,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt
  })

// Every process caches authenticated keys for a short time so a request costs no query; a revocation
// reaches every process sharing the database through this channel, and the cache lifetime bounds the rest.
const revokedChannel = "herald_api_key_revoked"
const cacheMillis = Duration.toMillis(Duration.seconds(30))
// `last_used_at` is written at most this often per key, off the request path.
const lastUsedMillis = Duration.toMillis(Duration.minutes(1))

interface CacheEntry {
  readonly principal: Principal
  readonly expiresAt: number
  lastUsedWrittenAt: number
}

export interface CreateInput {
  readonly workspaceId: string
  readonly name?: string | undefined
  /** A member of the workspace the key acts for, with the member's role. */
  readonly memberId?: string | undefined
}

export class ApiKeys extends Context.Service<ApiKeys, {
  create(input: CreateInput): Effect.Effect<ApiKey.CreatedApiKey, WorkspaceNotFound | MemberNotInWorkspace>
  /** Drops a member's keys from every process's cache, so a new role or a removal counts at once. */
  forgetMember(memberId: string): Effect.Effect<void>
  list(workspaceId: string): Effect.Effect<ReadonlyArray<ApiKey.ApiKey>, WorkspaceNotFound>
  revoke(keyId: string): Effect.Effect<ApiKey.ApiKey, ApiKeyNotFound>
  authenticate(key: string): Effect.Effect<Principal, Unauthenticated>
  /**
   * The principal of a key this process has cached and has nothing to do for (no lookup, no last-use write),
   * at `now`, without an effect; undefined otherwise, and `authenticate` says the rest. For the request path.
   */
  cached(key: string, now: number): Principal | undefined
}>()("@herald/core/ApiKeys") {
  static readonly layerNoDeps = Layer.effect(
    ApiKeys,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      const workspaces = yield* Workspaces
      const scope = yield* Effect.scope
      const cache = new Map<string, CacheEntry>()
      // Lookups under way, by hash: requests that race with a key not cached yet (a client opening many
      // connections at once) wait for the one lookup, so a new key costs one query and one last-use write.
      const lookups = new Map<string, Deferred.Deferred<Principal, Unauthenticated | SqlError.SqlError>>()

      const memberOf = SqlSchema.findOneOption({
        Request: Schema.Struct({ memberId: Schema.String, workspaceId: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ memberId, workspaceId }) =>
          sql`
          SELECT id FROM members WHERE id = ${memberId} AND workspace_id = ${workspaceId}`
      })
      const inserted = SqlSchema.findOne({
        Request: Schema.Struct({
          id: Schema.String,
          workspaceId: Schema.String,
          name: Schema.String,
          hash: Schema.Uint8Array,
          lastFour: Schema.String,
          memberId: Schema.NullOr(Schema.String)
        }),
        Result: KeyRow,
        execute: (key) =>
          sql`
          INSERT INTO api_keys (id, workspace_id, name, hash, last_four, member_id)
          VALUES (${key.id}, ${key.workspaceId}, ${key.name}, ${key.hash}, ${key.lastFour}, ${key.memberId})
          RETURNING ${sql.literal(keyColumns)}
        `
      })
      const ofWorkspace = SqlSchema.findAll({
        Request: Schema.String,
        Result: KeyRow,
        execute: (workspaceId) =>
          sql`
          SELECT ${sql.literal(keyColumns)}
          FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at, id
        `
      })
      const revoked = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: RevokedRow,
        execute: (keyId) =>
          sql`
          UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${keyId}
          RETURNING id, workspace_id, name, member_id, hash, last_four, created_at, last_used_at, revoked_at
        `
      })
      const byHash = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: LookupRow,
        execute: (hashHex) =>
          sql`
          SELECT k.id, k.workspace_id, k.revoked_at, k.member_id, m.role
          FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.hash = ${Buffer.from(hashHex, "hex")}
        `
      })
      const hashesOf = SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ hash: Schema.Uint8Array }),
        execute: (memberId) => sql`SELECT hash FROM api_keys WHERE member_id = ${memberId}`
      })

      const create = Effect.fn("ApiKeys.create")(function*(input: CreateInput) {
        yield* workspaces.get(input.workspaceId)
        const id = yield* Ids.make(DomainIds.prefixes.apiKey)
        const key = KeyFormat.generate()
        const name = input.name ?? "API key"
        if (input.memberId !== undefined) {
          const member = yield* dieOnBadRow(memberOf({ memberId: input.memberId, workspaceId: input.workspaceId }))
          if (Option.isNone(member)) return yield* new MemberNotInWorkspace({ memberId: input.memberId, workspaceId: input.workspaceId })
        }
        const row = yield* Effect.orDie(inserted({
          id,
          workspaceId: input.workspaceId,
          name,
          hash: KeyFormat.hash(key),
          lastFour: KeyFormat.lastFour(key),
          memberId: input.memberId ?? null
        }))
        return new ApiKey.CreatedApiKey({ ...toApiKey(row), key })
      })

      const list = Effect.fn("ApiKeys.list")(function*(workspaceId: string) {
        yield* workspaces.get(workspaceId)
        const rows = yield* dieOnBadRow(ofWorkspace(workspaceId))
        return rows.map(toApiKey)
      })

      const revoke = Effect.fn("ApiKeys.revoke")(function*(keyId: string) {
        const row = Option.getOrUndefined(yield* dieOnBadRow(revoked(keyId)))
        if (row === undefined) return yield* new ApiKeyNotFound({ keyId })
        const hashHex = Buffer.from(row.hash).toString("hex")
        cache.delete(hashHex)
        yield* pg.notify(revokedChannel, hashHex)
        return toApiKey(row)
      })

      const touch = (keyId: string) =>
        sql`UPDATE api_keys SET last_used_at = now() WHERE id = ${keyId}`.pipe(
          Effect.catchCause((cause) => Effect.logWarning("Could not record a key's last use", cause)),
          Effect.forkDetach
        )

      const lookup = Effect.fnUntraced(function*(hashHex: string, now: number) {
        const row = Option.getOrUndefined(yield* dieOnBadRow(byHash(hashHex)))
        if (row === undefined) return yield* new Unauthenticated({ reason: "unknown" })
        if (row.revokedAt !== null) return yield* new Unauthenticated({ reason: "revoked" })
        const principal: Principal = {
          workspaceId: row.workspaceId,
          keyId: row.id,
          memberId: row.memberId,
          role: row.role
        }
        cache.set(hashHex, { principal, expiresAt: now + cacheMillis, lastUsedWrittenAt: now })
        yield* touch(principal.keyId)
        return principal
      })

      /**
       * The one lookup of a key not cached, shared by every request asking meanwhile. It runs in a fiber of its
       * own, so a request given up by its client does not fail the others waiting for it.
       */
      const lookupOnce = (hashHex: string, now: number): Effect.Effect<Principal, Unauthenticated | SqlError.SqlError> => {
        const pending = lookups.get(hashHex)
        if (pending !== undefined) return Deferred.await(pending)
        const done = Deferred.makeUnsafe<Principal, Unauthenticated | SqlError.SqlError>()
        lookups.set(hashHex, done)
        const lookedUp = Effect.onExit(lookup(hashHex, now), (exit) =>
          Effect.sync(() => {
            lookups.delete(hashHex)
            Deferred.doneUnsafe(done, exit)
          }))
        return Effect.andThen(Effect.forkIn(lookedUp, scope, { startImmediately: true }), Deferred.await(done))
      }

      // Runs on every request: the cached path is plain code with no generator and no query.
      const authenticate = (key: string): Effect.Effect<Principal, Unauthenticated | SqlError.SqlError> => {
        const parsed = KeyFormat.parse(key)
        switch (parsed._tag) {
          case "Missing":
            return Effect.fail(new Unauthenticated({ reason: "missing" }))
          case "Malformed":
            return Effect.fail(new Unauthenticated({ reason: "malformed" }))
          case "BadChecksum":
            return Effect.fail(new Unauthenticated({ reason: "bad_checksum" }))
        }
        const hashHex = parsed.hashHex
        return Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const cached = cache.get(hashHex)
          if (cached === undefined || cached.expiresAt <= now) return lookupOnce(hashHex, now)
          if (now - cached.lastUsedWrittenAt < lastUsedMillis) return Effect.succeed(cached.principal)
          cached.lastUsedWrittenAt = now
          return Effect.as(touch(cached.principal.keyId), cached.principal)
        })
      }

      const cached = (key: string, now: number): Principal | undefined => {
        const parsed = KeyFormat.parse(key)
        if (parsed._tag !== "WellFormed") return undefined
        const entry = cache.get(parsed.hashHex)
        if (entry === undefined || entry.expiresAt <= now || now - entry.lastUsedWrittenAt >= lastUsedMillis) return undefined
        return entry.principal
      }

      // Revocations from any process sharing the database evict the key here too.
      yield* listenForEvictions(pg, revokedChannel, cache)

      const forgetMember = Effect.fn("ApiKeys.forgetMember")(function*(memberId: string) {
        const rows = yield* dieOnBadRow(hashesOf(memberId))
        for (const row of rows) {
          const hashHex = Buffer.from(row.hash).toString("hex")
          cache.delete(hashHex)
          yield* pg.notify(revokedChannel, hashHex)
        }
      })

      return ApiKeys.of(DieOnSql.service({ create, list, revoke, authenticate, cached, forgetMember }))
    })
  )

  static readonly layer = this.layerNoDeps.pipe(Layer.provideMerge(Workspaces.layer))
}

