import { api, unwrap } from "../../api/client.ts"

// The workspace's connected assistants (OAuth grants), as GET /api/v1/oauth/grants lists them: owners and
// admins see everyone's, others their own.
export const grantsKey = ["oauth-grants"] as const

export const listGrants = () => unwrap(api.GET("/api/v1/oauth/grants"))

export type Grant = Awaited<ReturnType<typeof listGrants>>[number]

/** Its tokens stop working at once. */
export const disconnect = (id: string) => unwrap(api.DELETE("/api/v1/oauth/grants/{id}", { params: { path: { id } } }))
