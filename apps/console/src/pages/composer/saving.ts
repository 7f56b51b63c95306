import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useNavigate } from "@tanstack/react-router"
import { useRef } from "react"
import { api, unwrap } from "../../api/client.ts"
import type { Post } from "./draft.ts"

/** The four ways out of the composer. */
export type Action = "draft" | "schedule" | "queue" | "publish"

/**
 * The timing fields of a save. A new post sends its one timing choice. A saved post is changed by PATCH,
 * which has no publishNow: "now" is the time, which the API takes up to a minute late; and a draft leaves
 * draft with `draft: false` beside the time.
 */
export const timingOf = (
  action: Action,
  scheduledAt: string | undefined,
  saved: Post | undefined,
  timeUnchanged: boolean
): Record<string, unknown> => {
  if (saved === undefined) {
    switch (action) {
      case "draft":
        return { draft: true }
      case "schedule":
        return { scheduledAt }
      case "queue":
        return { queued: true }
      case "publish":
        return { publishNow: true }
    }
  }
  const leavingDraft = saved.status === "draft" ? { draft: false } : {}
  switch (action) {
    case "draft":
      return saved.status === "draft" ? {} : { draft: true }
    case "schedule":
      // A scheduled post saved at the time it has keeps it as it is (a queued one keeps its slot).
      return saved.status === "scheduled" && timeUnchanged ? {} : { ...leavingDraft, scheduledAt }
    case "queue":
      return { queued: true }
    case "publish":
      return { ...leavingDraft, scheduledAt: new Date().toISOString() }
  }
}

/**
 * Saves the post (create, or PATCH of what changed) and opens its page. Every save carries an
 * Idempotency-Key: one per intended save, so the same request sent again (a double click, a retry after a
 * lost answer) reuses the key and the API answers it with the first post rather than making a second; a
 * different request (the person changed something) gets a new key.
 */
export const useSave = (saved: Post | undefined) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const intended = useRef<{ readonly request: string; readonly key: string } | undefined>(undefined)
  return useMutation({
    mutationFn: async (body: Record<string, unknown>): Promise<Post | undefined> => {
      if (saved !== undefined && Object.keys(body).length === 0) return saved
      const request = JSON.stringify([saved?.id, body])
      if (intended.current?.request !== request) intended.current = { request, key: crypto.randomUUID() }
      const headers = { "Idempotency-Key": intended.current.key }
      // The option fields come from the networks' schemas at run time, so the body is not the compiled type.
      return saved === undefined
        ? unwrap(api.POST("/api/v1/posts", { body: body as never, headers }))
        : unwrap(api.PATCH("/api/v1/posts/{id}", { params: { path: { id: saved.id } }, body: body as never, headers }))
    },
    onSuccess: async (post) => {
      if (post === undefined) return
      // Lists and the calendar read again when next shown; the post's page loads it fresh.
      void queryClient.invalidateQueries({ queryKey: ["posts"] })
      await navigate({ to: "/posts/$id", params: { id: post.id } })
    }
  })
}
