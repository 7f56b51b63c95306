import { Effect, Option } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, SessionsApi } from "@herald/api"
import { Notifier, People, Sessions, Team } from "@herald/core"
import { Permissions } from "@herald/domain"
import { withHeaders } from "./AnswerHeaders.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as ClientAddress from "./ClientAddress.ts"
import { answered } from "./ErrorRendering.ts"
import * as SessionAuth from "./SessionAuth.ts"

// The console's sign-in and sessions (decision 0021): each handler calls the People, Sessions and Team
// services and maps their errors; the cookie and CSRF rules live in SessionAuth.

/** A membership with what its role may do there, from the permission table (decision 0085). */
const toWorkspace = (membership: People.Membership) =>
  new SessionsApi.SessionWorkspace({ ...membership, permissions: Permissions.allowed(membership.role) })

const toSession = (described: Sessions.Described) =>
  new SessionsApi.Session({
    person: new SessionsApi.SessionPerson(described.person),
    workspace: toWorkspace(described.workspace),
    workspaces: described.workspaces.map(toWorkspace),
    csrfToken: described.csrfToken,
    expiresAt: described.expiresAt,
    mustSetPassword: described.mustSetPassword
  })

const tooMany = (refused: People.TooManyAttempts) =>
  withHeaders(Effect.fail(new ApiError.RateLimited({ message: refused.message })), {
    "retry-after": String(refused.retryAfterSeconds)
  })

const invalid = (error: { readonly field: string; readonly message: string }) =>
  Effect.fail(new ApiError.Invalid({ message: error.message, details: [{ field: error.field, message: error.message }] }))

/** The session of a request authenticated by its cookie; a key has none. */
const currentSession = Effect.flatMap(Authorization.CurrentPrincipal, (principal) =>
  principal.sessionId === null || principal.personId === null
    ? Effect.fail(new ApiError.Unauthorized({ message: "Not signed in: this needs the console's session cookie, not an API key" }))
    : Effect.succeed({ sessionId: principal.sessionId, personId: principal.personId }))

export const signInLayer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "signIn",
  Effect.fnUntraced(function*(handlers) {
    const people = yield* People.People
    const sessions = yield* Sessions.Sessions
    const team = yield* Team.Team
    const notifier = yield* Notifier.Notifier
    const publicUrl = yield* PublicUrl

    /** Starts a session, sets its cookie and answers it. */
    const begin = Effect.fnUntraced(function*(input: Omit<Parameters<Sessions.Sessions["Service"]["start"]>[0], "client">) {
      const started = yield* sessions.start({ ...input, client: yield* SessionAuth.client })
      yield* SessionAuth.setCookie(publicUrl, started.token, started.principal.maxAgeSeconds)
      return { data: toSession(yield* sessions.describe(started.principal.sessionId)) }
    })

    /** The workspace a person signs in to: the first they are a member of. */
    const firstWorkspace = Effect.fnUntraced(function*(personId: string) {
      const [first] = yield* people.memberships(personId)
      if (first === undefined) return yield* new ApiError.Unauthorized({ message: "Wrong e-mail or password" })
      return first.id
    })

    return handlers
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          yield* SessionAuth.sameOrigin(publicUrl)
          const address = yield* ClientAddress.rateLimitGroup
          yield* people.limit(address, payload.email)
          const person = yield* people.signIn(payload.email, payload.password, address)
          const workspaceId = yield* firstWorkspace(person.id)
          return yield* begin({ personId: person.id, workspaceId, via: "password", mustSetPassword: false })
        }).pipe(
          Effect.catchTag("TooManyAttempts", tooMany),
          Effect.catchTag("WrongCredentials", (wrong) => Effect.fail(new ApiError.Unauthorized({ message: wrong.message }))),
          Effect.catchTag(["NotAMember", "SessionRefused"], Effect.die)
        ))
      .handle("link", ({ payload }) =>
        Effect.gen(function*() {
          yield* SessionAuth.sameOrigin(publicUrl)
          const link = yield* sessions.consumeLink(payload.token)
          return yield* begin({
            personId: link.personId,
            workspaceId: link.workspaceId,
            via: "link",
            mustSetPassword: link.purpose === "reset" || link.passwordDropped
          })
        }).pipe(
          Effect.catchTag(["LinkRefused", "NotAMember"], () =>
            Effect.fail(new ApiError.Invalid({ message: new Sessions.LinkRefused().message }))),
          Effect.catchTag("SessionRefused", Effect.die)
        ))
      .handle("passwordReset", ({ payload }) =>
        Effect.gen(function*() {
          yield* SessionAuth.sameOrigin(publicUrl)
          if (!notifier.sends) return { data: new SessionsApi.ResetAnswer({ email: "unavailable" }) }
          yield* people.limit(yield* ClientAddress.rateLimitGroup, payload.email)
          // Looked up and mailed after the answer, so that it takes as long whether the address has an account or not.
          yield* notifier.sendInBackground(sessions.resetMail(payload.email))
          return { data: new SessionsApi.ResetAnswer({ email: "sent" }) }
        }).pipe(Effect.catchTag("TooManyAttempts", tooMany)))
      .handle("invitation", ({ payload }) =>
        Effect.gen(function*() {
          yield* SessionAuth.sameOrigin(publicUrl)
          const invitation = yield* team.preview(payload.token)
          const person = yield* people.byEmail(invitation.email)
          return {
            data: new SessionsApi.InvitationPreview({
              workspace: new SessionsApi.InvitationWorkspace({ id: invitation.workspace.id, name: invitation.workspace.name }),
              email: invitation.email,
              role: invitation.role,
              personExists: Option.isSome(person),
              passwordSet: Option.isSome(person) && person.value.hasPassword,
              expiresAt: invitation.expiresAt
            })
          }
        }).pipe(
          Effect.catchTag("InvitationRefused", (refused) => Effect.fail(new ApiError.Invalid({ message: refused.message })))
        ))
      .handle("acceptInvitation", ({ payload }) =>
        Effect.gen(function*() {
          yield* SessionAuth.sameOrigin(publicUrl)
          const invitation = yield* team.preview(payload.token)
          // A person who exists is never given credentials here: accepting for them takes being them.
          const existing = yield* people.byEmail(invitation.email)
          if (Option.isSome(existing)) {
            const signedIn = yield* SessionAuth.optionalSession(sessions)
            const asThem = Option.isSome(signedIn) && signedIn.value.personId === existing.value.id
            if (!asThem && !existing.value.hasPassword) {
              return yield* new ApiError.Unauthorized({
                message: `${invitation.email} already has a Herald sign-in: sign in as that person (with the sign-in link ` +
                  `they were given, or by resetting the password from the sign-in page) and open this invitation again`
              })
            }
            if (!asThem) {
              yield* people.limit(yield* ClientAddress.rateLimitGroup, invitation.email)
              const matches = payload.password !== undefined && (yield* people.checkPassword(existing.value.id, payload.password))
              if (!matches) {
                return yield* new ApiError.Unauthorized({
                  message: `Sign in as ${invitation.email} or send that person's password to accept this invitation`
                })
              }
            }
          } else {
            const problems = [
              ...(payload.name === undefined || payload.name.trim() === "" ? [{ field: "name", message: "name is required" }] : []),
              ...(payload.password === undefined ? [{ field: "password", message: "password is required" }] : [])
            ]
            if (problems.length > 0) {
              return yield* new ApiError.Invalid({ message: problems.map((problem) => problem.message).join("; "), details: problems })
            }
          }
          let person = existing
          if (Option.isNone(person)) {
            // Made here or not at all: a person another request made meanwhile is never given these credentials.
            person = yield* people.create(invitation.email)
            if (Option.isNone(person)) {
              return yield* new ApiError.Unauthorized({
                message: `${invitation.email} already has a Herald sign-in: sign in as that person and open this invitation again`
              })
            }
            yield* people.setPassword(person.value.id, payload.password!)
            yield* people.rename(person.value.id, payload.name!)
          }
          const accepted = yield* team.accept(payload.token, person.value.id)
          return yield* begin({ personId: person.value.id, workspaceId: accepted.workspace.id, via: "password", mustSetPassword: false })
        }).pipe(
          Effect.catchTag("InvitationRefused", (refused) => Effect.fail(new ApiError.Invalid({ message: refused.message }))),
          Effect.catchTag("TooManyAttempts", tooMany),
          Effect.catchTag(["NotAMember", "SessionRefused"], Effect.die),
          answered
        ))
  })
)

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "sessions",
  Effect.fnUntraced(function*(handlers) {
    const people = yield* People.People
    const sessions = yield* Sessions.Sessions
    const publicUrl = yield* PublicUrl

    const describe = (sessionId: string) =>
      Effect.map(sessions.describe(sessionId), (described) => ({ data: toSession(described) }))

    return handlers
      .handle("session", () =>
        Effect.flatMap(currentSession, (session) => describe(session.sessionId)).pipe(
          Effect.catchTag("SessionRefused", (refused) => Effect.fail(new ApiError.Unauthorized({ message: refused.message })))
        ))
      .handle("signOut", () =>
        Effect.gen(function*() {
          const session = yield* currentSession
          yield* Effect.orDie(sessions.revoke(session.sessionId))
          yield* SessionAuth.clearCookie(publicUrl)
        }))
      .handle("workspace", ({ payload }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          yield* sessions.switchWorkspace(session.sessionId, payload.workspaceId)
          return yield* describe(session.sessionId)
        }).pipe(
          Effect.catchTag("NotAMember", (error) => Effect.fail(new ApiError.NotFound({ message: error.message }))),
          Effect.catchTag("SessionRefused", Effect.die)
        ))
      .handle("password", ({ payload }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          const person = yield* people.get(session.personId)
          if (person.hasPassword && !(yield* sessions.withinLinkGrace(session.sessionId))) {
            const matches = payload.currentPassword !== undefined &&
              (yield* people.checkPassword(session.personId, payload.currentPassword))
            if (!matches) {
              return yield* invalid({
                field: "currentPassword",
                message: payload.currentPassword === undefined ? "currentPassword is required" : "currentPassword is wrong"
              })
            }
          }
          yield* people.setPassword(session.personId, payload.password)
          yield* sessions.passwordChanged(session.personId, session.sessionId)
        }).pipe(Effect.catchTag("TooManyAttempts", tooMany), answered))
      .handle("profile", ({ payload }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          yield* people.rename(session.personId, payload.name)
          return yield* describe(session.sessionId)
        }).pipe(
          Effect.catchTag("SessionRefused", Effect.die),
          answered
        ))
      .handle("sessions", () =>
        Effect.gen(function*() {
          const session = yield* currentSession
          const listed = yield* Effect.orDie(sessions.list(session.personId, session.sessionId))
          return { data: listed.map((one) => new SessionsApi.SessionListed(one)) }
        }))
      .handle("revoke", ({ params }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          yield* sessions.revokeOwn(session.personId, params.id)
        }).pipe(
          Effect.catchTag("SessionNotFound", (error) => Effect.fail(new ApiError.NotFound({ message: error.message })))
        ))
  })
)
