import type { components } from "@herald/client/api"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { api, unwrap } from "../../api/client.ts"

export type Validation = components["schemas"]["PostValidation"]

/**
 * What the API says of the post as it stands: POST /api/v1/posts/validate with the body a save would send,
 * once typing has paused for 300 ms (one request per pause, not per key). The previous answer stays on
 * screen while the next is on its way, so counters do not flicker. Nothing is judged here: every count and
 * problem is the server's.
 */
export const useValidation = (body: Record<string, unknown>, enabled: boolean) => {
  const json = JSON.stringify(body)
  const [settled, setSettled] = useState({ json, body })
  useEffect(() => {
    const timer = setTimeout(() => setSettled({ json, body }), 300)
    return () => clearTimeout(timer)
    // The body is a new object on every render; its JSON says when it changed.
  }, [json])
  return useQuery({
    queryKey: ["validate", settled.json],
    // The option fields come from the networks' schemas at run time, so the body is not the compiled type.
    queryFn: ({ signal }) => unwrap(api.POST("/api/v1/posts/validate", { body: settled.body as never, signal })),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false
  })
}
