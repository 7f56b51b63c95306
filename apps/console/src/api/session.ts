import { queryOptions, useQuery } from "@tanstack/react-query"
import { api, setCsrfToken, unwrap } from "./client.ts"

// The signed-in person, their current workspace and the CSRF token, as GET /api/v1/auth/session answers.
export interface Workspace {
  readonly id: string
  readonly name: string
  readonly role: "owner" | "admin" | "editor" | "viewer"
  readonly memberId: string
}

export interface Session {
  readonly person: { readonly id: string; readonly email: string; readonly name: string | null; readonly hasPassword: boolean }
  readonly workspace: Workspace
  readonly workspaces: ReadonlyArray<Workspace>
  readonly csrfToken: string
  readonly expiresAt: string
  readonly mustSetPassword: boolean
}

/** Every answer that is a Session goes through here, so the CSRF token is always the current one. */
export const remember = (session: unknown): Session => {
  const known = session as Session
  setCsrfToken(known.csrfToken)
  return known
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
