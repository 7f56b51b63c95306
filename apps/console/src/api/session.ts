import type { components } from "@herald/client/api"
import { queryOptions, useQuery } from "@tanstack/react-query"
import { api, setCsrfToken, unwrap } from "./client.ts"

// The signed-in person, their current workspace and the CSRF token, as GET /api/v1/auth/session answers.
export type Session = components["schemas"]["Session"]
type Workspace = components["schemas"]["SessionWorkspace"]
/** An action of the API's permission table (decision 0085), as the session and the consent page list them. */
export type Permission = Workspace["permissions"][number]

/**
 * Whether the person's role in a workspace may do `action`, as the API says in `permissions`: the console
 * keeps no table of its own, only offers what is open and leaves each request to the API.
 */
export const may = (workspace: { readonly permissions: ReadonlyArray<Permission> }, action: Permission) =>
  workspace.permissions.includes(action)

/** Every answer that is a Session goes through here, so the CSRF token is always the current one. */
export const remember = (session: Session): Session => {
  setCsrfToken(session.csrfToken)
  return session
}

export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: async () => remember(await unwrap(api.GET("/api/v1/auth/session"))),
  staleTime: 60_000,
  retry: false
})

/** The session inside the signed-in shell, where the route has already loaded it. */
export const useSession = (): Session => {
  const { data } = useQuery(sessionQuery)
  if (data === undefined) throw new Error("useSession is used outside the signed-in pages")
  return data
}
