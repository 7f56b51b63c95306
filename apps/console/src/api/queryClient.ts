import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query"
import { ApiError } from "./ApiError.ts"

// When any call answers 401 the session is gone (signed out elsewhere, expired, revoked): back to sign-in,
// to return here afterwards. Set by main.tsx once the router exists.
let onSignedOut: () => void = () => {}
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler
}

const check = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401) onSignedOut()
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: check }),
  mutationCache: new MutationCache({ onError: check }),
  defaultOptions: {
    queries: {
      // A 4xx will answer the same again; other failures (a restart) are worth one more try.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
      refetchOnWindowFocus: true
    }
  }
})
