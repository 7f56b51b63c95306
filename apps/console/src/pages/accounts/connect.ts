import type { components } from "@herald/client/api"
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"

export type Account = components["schemas"]["Account"]
export type Network = components["schemas"]["Network"]

export const accountsQuery = queryOptions({
  queryKey: ["accounts"],
  queryFn: () => unwrap(api.GET("/api/v1/accounts"))
})

export const networksQuery = queryOptions({
  queryKey: ["networks"],
  queryFn: () => unwrap(api.GET("/api/v1/networks")),
  // What a server offers changes only when it restarts with other settings.
  staleTime: 5 * 60_000
})

/** The connect methods this console knows how to carry out; any other is named, not guessed at. */
export const knownMethod = (network: Network): boolean =>
  network.connect.method === "oauth" || network.connect.method === "credentials"

/** This page: the API sends the person back here from the network's consent page, saying how it went. */
const returnTo = "/app/accounts"

// Anyone can link to this page with `?error=` words of their own, so the page repeats what comes back only
// when this tab left for a consent page: the tab's own storage says so, and no other site can write it.
const leftToConsent = "herald.connecting"

/** Whether this tab left for a network's consent page whose flow is still valid. */
export const cameBackFromConsent = (): boolean => {
  const until = window.sessionStorage.getItem(leftToConsent)
  return until !== null && Date.parse(until) > Date.now()
}

/** Once the outcome is shown: a later link to this page is not taken for the end of that flow. */
export const forgetConsent = () => window.sessionStorage.removeItem(leftToConsent)

/**
 * Connects (or reconnects) an account of a network by its connect method, with the network's `fields`
 * (only those filled in: an empty optional field is not sent).
 * - `oauth`: `POST /api/v1/accounts/connect/:platform` with the fields and `returnTo` answers the consent
 *   page's address, and the browser goes there. It stays busy while the browser leaves.
 * - `credentials`: the fields are posted to `POST /api/v1/accounts/connect`; the account is connected at
 *   once and the list is read again. A refusal comes back in the network's words.
 */
export const useConnect = () => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ network, values }: { readonly network: Network; readonly values: Readonly<Record<string, string>> }) => {
      const fields = Object.fromEntries(
        network.connect.fields.flatMap((field) => {
          const value = field.secret ? values[field.name] ?? "" : values[field.name]?.trim() ?? ""
          return value === "" ? [] : [[field.name, value]]
        })
      )
      if (network.connect.method === "credentials") {
        await unwrap(api.POST("/api/v1/accounts/connect", { body: { platform: network.key, fields } }))
        await queryClient.invalidateQueries({ queryKey: accountsQuery.queryKey })
        return
      }
      const link = await unwrap(api.POST("/api/v1/accounts/connect/{platform}", {
        params: { path: { platform: network.key } },
        // The fields' names come from the API at run time, so they are not in the compiled body type.
        body: { ...fields, returnTo }
      }))
      window.sessionStorage.setItem(leftToConsent, link.expiresAt)
      window.location.assign(link.url)
      // Never settles: the page is leaving, and the button should stay busy until it has.
      return new Promise<never>(() => {})
    }
  })
}
