import { api, unwrap } from "../../api/client.ts"

// The pending authorization request behind /app/oauth/consent?request=…, as the API keeps it (ten minutes).
export const readRequest = (id: string) => unwrap(api.GET("/api/v1/oauth/requests/{id}", { params: { path: { id } } }))

export type AuthorizationRequest = Awaited<ReturnType<typeof readRequest>>

/** Allows the assistant in `workspaceId`; `publishesDirectly` lets it publish without approval there. */
export const approveRequest = (id: string, workspaceId: string, publishesDirectly: boolean) =>
  unwrap(api.POST("/api/v1/oauth/requests/{id}/approve", { params: { path: { id } }, body: { workspaceId, publishesDirectly } }))

export const denyRequest = (id: string) => unwrap(api.POST("/api/v1/oauth/requests/{id}/deny", { params: { path: { id } } }))
