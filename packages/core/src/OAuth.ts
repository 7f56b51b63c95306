import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Grants from "./internal/oauthGrants.ts"
import { oauthStatements } from "./internal/oauthRows.ts"
import * as Rules from "./internal/oauthRules.ts"
import {
  AuthorizeRefused,
  AuthorizeUntrusted,
  DirectPublishingRefused,
  GrantNotFound,
  NotAMemberOf,
  OAuthRefused,
  RequestNotFound,
  TokenRefused
} from "./OAuthErrors.ts"
import * as Tokens from "./internal/oauthTokens.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { People } from "./People.ts"
import { PublicUrl } from "./PublicUrl.ts"

export * from "./OAuthErrors.ts"
export type { Issued, Principal } from "./internal/oauthTokens.ts"
export type { Grant } from "./internal/oauthGrants.ts"

/**
 * Herald as an OAuth 2.1 authorization server for its own MCP endpoint (decision 0045): clients register
 * themselves (RFC 7591), a person approves a request in the console, the client trades the one-time code
 * and its PKCE verifier for tokens (OAuthTokens). A grant acts as the approving person's member in the
 * workspace they picked, with that member's role as it is at each request.
 */

export const requestLifetime = Duration.minutes(10)
/** The longest `state` an authorization request may carry; it is stored, and sent back. */
export const maxStateLength = 1_024
/** Requests of one client waiting for a person's answer at once. */
export const openRequestsPerClient = 50
export const codeLifetime = Duration.minutes(5)
/** The one scope: the whole MCP server, as the member's role allows. */
export const scopes: ReadonlyArray<string> = ["mcp"]

/** Whether a bearer credential is one of these access tokens rather than an API key (by its prefix). */
export const isAccessToken = (credential: string) => credential.startsWith(Rules.accessPrefix)

/** The protected resource's identifier (RFC 8707): the MCP endpoint. */
export const resourceOf = (publicUrl: string) => `${publicUrl}/api/mcp`

export interface Client {
  readonly id: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly createdAt: Date
}

export interface Pending {
  readonly id: string
  readonly client: { readonly id: string; readonly name: string }
  readonly redirectUri: string
  readonly resource: string
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt: string
}

/** The query of `GET /authorize`, as sent. */
export type AuthorizeQuery = Readonly<Record<string, string | undefined>>

export class OAuth extends Context.Service<OAuth, {
  register(input: { readonly clientName: string | undefined; readonly redirectUris: unknown }): Effect.Effect<Client, OAuthRefused>
  /** Checks a `/authorize` request and keeps it for the person's consent; answers its id. */
  authorize(query: AuthorizeQuery): Effect.Effect<string, AuthorizeUntrusted | AuthorizeRefused>
  pending(requestId: string): Effect.Effect<Pending, RequestNotFound>
  /**
   * The person approves for their member in `workspaceId`, letting the assistant publish without approval
   * or not: answers where to send the browser, with the code.
   */
  approve(requestId: string, personId: string, workspaceId: string, publishesDirectly: boolean): Effect.Effect<
    string,
    RequestNotFound | NotAMemberOf | DirectPublishingRefused
  >
  /**
   * The person's workspaces where their role publishes without approval (an owner or admin, or an editor
   * where approval is not required): there, and only there, they may let an assistant do so too.
   */
  directPublishing(personId: string): Effect.Effect<ReadonlySet<string>>
  deny(requestId: string): Effect.Effect<string, RequestNotFound>
  /** `POST /token`'s form, either grant type. */
  token(form: AuthorizeQuery): Effect.Effect<Tokens.Issued, OAuthRefused>
  revoke(token: string): Effect.Effect<void>
  authenticate(accessToken: string): Effect.Effect<Tokens.Principal, TokenRefused>
  /** A workspace's live grants; only `memberId`'s when given. */
  grants(workspaceId: string, memberId: string | null): Effect.Effect<ReadonlyArray<Grants.Grant>>
  revokeGrant(workspaceId: string, grantId: string, memberId: string | null): Effect.Effect<void, GrantNotFound>
}>()("@herald/core/OAuth") {
  static readonly layer = Layer.effect(
    OAuth,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const people = yield* People
      const publicUrl = yield* PublicUrl
      const resource = resourceOf(publicUrl)
      const tokens = yield* Tokens.make
      const grants = yield* Grants.make
      const statements = oauthStatements(sql)

      const register = Effect.fn("OAuth.register")(function*(input: Parameters<OAuth["Service"]["register"]>[0]) {
        const uris = input.redirectUris
        if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every((uri) => typeof uri === "string")) {
          return yield* new OAuthRefused({ error: "invalid_redirect_uri", description: "redirect_uris must be a list of 1 to 10 URLs" })
        }
        for (const uri of uris as ReadonlyArray<string>) {
          const problem = Rules.redirectUriProblem(uri)
          if (problem !== undefined) return yield* new OAuthRefused({ error: "invalid_redirect_uri", description: problem })
        }
        const name = (input.clientName ?? "").trim().slice(0, 200) || "Unnamed assistant"
        const id = `mcl_${Rules.secret("").slice(0, 24)}`
        const row = yield* Effect.orDie(statements.registered({ id, name, redirectUris: uris }))
        return { ...row, createdAt: new Date(row.createdAt) } satisfies Client
      })

      const authorize = Effect.fn("OAuth.authorize")(function*(query: AuthorizeQuery) {
        const clientId = query["client_id"] ?? ""
        const found = clientId === "" ? Option.none() : yield* dieOnBadRow(statements.client(clientId))
        if (Option.isNone(found)) {
          return yield* new AuthorizeUntrusted({ description: "This assistant is not registered with Herald: connect it again from the assistant" })
        }
        const client = found.value
        // With one registered URI it may be left out (RFC 6749, section 3.1.2.3); otherwise it must match exactly.
        const redirectUri = query["redirect_uri"] ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined)
        if (redirectUri === undefined || !client.redirectUris.includes(redirectUri)) {
          return yield* new AuthorizeUntrusted({ description: "The redirect_uri is not one this assistant registered, so Herald will not send it there" })
        }
        const state = query["state"]
        if (state !== undefined && state.length > maxStateLength) {
          return yield* new AuthorizeUntrusted({ description: `state is longer than ${maxStateLength} characters` })
        }
        // Anyone may register a client with any https address, so an error is sent back there only for a client
        // someone in Herald has connected; a stranger's is answered on Herald's own page, or /authorize would
        // send people anywhere (an open redirect).
        const [connected] = yield* sql`SELECT 1 FROM oauth_grants WHERE client_id = ${client.id} AND revoked_at IS NULL LIMIT 1`
        const refuse = (error: AuthorizeRefused["error"], description: string) =>
          connected === undefined
            ? new AuthorizeUntrusted({ description: `${description} (${error})` })
            : new AuthorizeRefused({
              error,
              description,
              redirectTo: Rules.withQuery(redirectUri, { error, error_description: description, state, iss: publicUrl })
            })
        if (query["response_type"] !== "code") return yield* refuse("unsupported_response_type", "response_type must be code")
        const challenge = query["code_challenge"]
        if (challenge === undefined) return yield* refuse("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256")
        if (query["code_challenge_method"] !== "S256") return yield* refuse("invalid_request", "code_challenge_method must be S256")
        if (!Rules.isChallenge(challenge)) return yield* refuse("invalid_request", "code_challenge must be 43 base64url characters (S256)")
        // A client that sends no resource means this server's only one (RFC 8707 makes it optional).
        if (query["resource"] !== undefined && query["resource"] !== resource) {
          return yield* refuse("invalid_target", `resource must be ${resource}`)
        }
        const requested = (query["scope"] ?? "").split(" ").filter((scope) => scope !== "")
        const unknown = requested.filter((scope) => !scopes.includes(scope))
        if (unknown.length > 0) return yield* refuse("invalid_scope", `Unknown scope ${unknown.join(" ")}; Herald offers ${scopes.join(" ")}`)
        const now = yield* Clock.currentTimeMillis
        // Lapsed requests serve nothing once their code has lapsed too (it lives 5 minutes past the answer):
        // each new request clears them, so a flood of requests leaves no pile behind.
        const lapsed = new Date(now - Duration.toMillis(Duration.minutes(10)))
        yield* sql`DELETE FROM oauth_requests
          WHERE expires_at < ${lapsed} AND (code_expires_at IS NULL OR code_expires_at < ${lapsed})`
        const waiting = yield* dieOnBadRow(statements.waiting({ clientId: client.id, now: new Date(now) }))
        if (Option.match(waiting, { onNone: () => 0, onSome: (row) => row.count }) >= openRequestsPerClient) {
          return yield* new AuthorizeUntrusted({
            description: "Too many sign-ins are waiting for this assistant's answer; try again in a few minutes"
          })
        }
        const id = `oar_${Rules.secret("")}`
        yield* sql`
          INSERT INTO oauth_requests (id, client_id, redirect_uri, code_challenge, state, resource, scopes, expires_at)
          VALUES (${id}, ${client.id}, ${redirectUri}, ${challenge}, ${state ?? null}, ${resource}, ${JSON.stringify(scopes)}::jsonb,
            ${new Date(now + Duration.toMillis(requestLifetime))})`
        return id
      })

      /** A request still waiting for its answer. */
      const open = Effect.fnUntraced(function*(requestId: string) {
        const now = yield* Clock.currentTimeMillis
        const row = yield* dieOnBadRow(statements.open({ requestId, now: new Date(now) }))
        if (Option.isNone(row)) return yield* new RequestNotFound({ requestId })
        return { row: row.value, now }
      })

      const pending = Effect.fn("OAuth.pending")(function*(requestId: string) {
        const { row } = yield* open(requestId)
        return {
          id: row.id,
          client: { id: row.clientId, name: row.clientName },
          redirectUri: row.redirectUri,
          resource: row.resource,
          scopes: row.scopes,
          expiresAt: row.expiresAt
        }
      })

      const directPublishing = Effect.fn("OAuth.directPublishing")(function*(personId: string) {
        const rows = yield* dieOnBadRow(statements.directPublishing(personId))
        return new Set(rows.map((row) => row.id))
      })

      const approve = Effect.fn("OAuth.approve")(function*(
        requestId: string,
        personId: string,
        workspaceId: string,
        publishesDirectly: boolean
      ) {
        const { now, row } = yield* open(requestId)
        const member = (yield* people.memberships(personId)).find((one) => one.id === workspaceId)
        if (member === undefined) return yield* new NotAMemberOf({ workspaceId })
        // Nobody lets an assistant do more than they may themselves.
        if (publishesDirectly && !(yield* directPublishing(personId)).has(workspaceId)) {
          return yield* new DirectPublishingRefused({ role: member.role })
        }
        const code = Rules.secret("")
        // Answered once: a second answer (two tabs, a double click) finds it decided.
        const decided = yield* sql`
          UPDATE oauth_requests SET decided_at = ${new Date(now)}, member_id = ${member.memberId}, code_hash = ${Rules.digest(code)},
            code_expires_at = ${new Date(now + Duration.toMillis(codeLifetime))}, publishes_directly = ${publishesDirectly}
          WHERE id = ${requestId} AND decided_at IS NULL RETURNING id`
        if (decided.length === 0) return yield* new RequestNotFound({ requestId })
        return Rules.withQuery(row.redirectUri, { code, state: row.state, iss: publicUrl })
      })

      const deny = Effect.fn("OAuth.deny")(function*(requestId: string) {
        const { now, row } = yield* open(requestId)
        const decided = yield* sql`
          UPDATE oauth_requests SET decided_at = ${new Date(now)} WHERE id = ${requestId} AND decided_at IS NULL RETURNING id`
        if (decided.length === 0) return yield* new RequestNotFound({ requestId })
        return Rules.withQuery(row.redirectUri, {
          error: "access_denied",
          error_description: "The person did not allow this assistant",
          state: row.state,
          iss: publicUrl
        })
      })

      return OAuth.of(DieOnSql.service({
        register,
        authorize,
        pending,
        approve,
        directPublishing,
        deny,
        token: tokens.token,
        revoke: tokens.revoke,
        authenticate: tokens.authenticate,
        grants: grants.grants,
        revokeGrant: grants.revokeGrant
      }))
    })
  )
}
