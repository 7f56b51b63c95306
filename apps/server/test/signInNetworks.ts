import { Effect, Option, Redacted } from "effect"
import { Adapter, AdapterConfig, Connect } from "@herald/adapter-kit"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import { examplePackage } from "./harness.ts"

// Small test networks made from the kit's example network, for the sign-in paths beside OAuth: `keyed`
// signs in with a handle and an app password (as Bluesky does); `fedi` has a server per account and
// registers Herald there on first use (as Mastodon does). Both need no client id to be offered.

export const password = "correct-horse-battery"

/** Each post a `keyed` account published: who, and the server Herald said it lives on. */
export const published: Array<{ readonly username: string; readonly server: string | null }> = []

/** Each renewal of a `keyed` account: the refresh token it was given and the account's server. */
export const refreshes: Array<{ readonly refreshToken: string; readonly server: string | null }> = []

/** A network signed in to with a handle and an app password; anything but `password` is refused in words. */
export const keyedPackage: NetworkPackage = {
  network: "keyed",
  make: (config) =>
    Effect.map(ExampleNetwork.make(config), ({ inbox: _inbox, oauth: _oauth, ...example }) =>
      Adapter.make({
        ...example,
        network: "keyed",
        name: "Keyed",
        connect: Connect.credentials([
          new Connect.Field({ name: "identifier", label: "Handle", required: true, secret: false }),
          new Connect.Field({ name: "password", label: "App password", required: true, secret: true })
        ]),
        // Publishing is the network's own business: here it only notes the account's server it was given.
        publish: (input) =>
          Effect.sync(() => {
            published.push({ username: input.account.username, server: input.account.server ?? null })
            return { _tag: "Published", published: { id: `p${published.length}`, url: `https://keyed.test/p${published.length}` } } as const
          }),
        credentials: {
          signIn: (fields) =>
            fields["password"] === password
              ? Effect.succeed({
                tokens: {
                  accessToken: Redacted.make(`token-of-${fields["identifier"]}`),
                  refreshToken: Option.some(Redacted.make(`refresh-of-${fields["identifier"]}`)),
                  expiresAt: Option.some(Date.now() + 3_600_000),
                  scopes: []
                },
                profile: {
                  networkAccountId: `did:${fields["identifier"]}`,
                  username: fields["identifier"]!,
                  displayName: null,
                  avatarUrl: null
                },
                server: "https://pds.keyed.test"
              })
              : Effect.fail(new Adapter.SignInRefused({ message: "Wrong handle or app password" })),
          refresh: (refreshToken, context) =>
            Effect.sync(() => {
              refreshes.push({ refreshToken: Redacted.value(refreshToken), server: context.server ?? null })
              return {
                accessToken: Redacted.make(`renewed-${refreshes.length}`),
                refreshToken: Option.some(Redacted.make(`refresh-${refreshes.length}`)),
                expiresAt: Option.some(Date.now() + 3_600_000),
                scopes: []
              }
            }),
          sandboxFields: (username) => ({ identifier: username, password })
        }
      })),
  simulator: (options) => ({ ...ExampleNetwork.simulator(options), network: "keyed" }),
  realConfig: examplePackage.realConfig,
  offered: AdapterConfig.always
}

/** What the `fedi` network's servers were asked: each app registration, and the app each step was given. */
export const registrations: Array<string> = []
export const clientsSeen: Array<string | undefined> = []

/** A network of many servers: the example network's OAuth, with Herald's app registered per server. */
export const fediPackage: NetworkPackage = {
  network: "fedi",
  make: (config) =>
    Effect.map(ExampleNetwork.make(config), (example) =>
      Adapter.make({
        ...example,
        network: "fedi",
        name: "Fedi",
        connect: Connect.instance,
        oauth: {
          ...example.oauth,
          registerApp: ({ server }) =>
            Effect.sync(() => {
              registrations.push(server)
              return { clientId: `app-${registrations.length}`, clientSecret: Redacted.make(`app-secret-${registrations.length}`) }
            }),
          authorizeUrl: (params) => {
            clientsSeen.push(params.client?.clientId)
            return example.oauth.authorizeUrl(params)
          },
          exchange: (params) => {
            clientsSeen.push(params.client?.clientId)
            return example.oauth.exchange(params)
          },
          refresh: (refreshToken, context) => {
            clientsSeen.push(context?.client?.clientId)
            return example.oauth.refresh!(refreshToken)
          }
        }
      })),
  simulator: (options) => ({ ...ExampleNetwork.simulator(options), network: "fedi" }),
  realConfig: examplePackage.realConfig,
  offered: AdapterConfig.always
}

