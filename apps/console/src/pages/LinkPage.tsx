import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate } from "@tanstack/react-router"
import { useEffect, useRef } from "react"
import { api, unwrap } from "../api/client.ts"
import { remember, sessionQuery } from "../api/session.ts"
import { ErrorMessage } from "../components/Banner.tsx"
import { AuthCard } from "../components/AuthCard.tsx"
import { Loading } from "../components/Page.tsx"

// A one-time sign-in link: /app/link#<token>. The token sits in the fragment so it never reaches a server
// log or a Referer; it is taken out of the address (and history) before anything else happens.
export const LinkPage = () => {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const token = useRef<string | undefined>(undefined)
  if (token.current === undefined) {
    token.current = window.location.hash.slice(1)
    if (token.current !== "") window.history.replaceState(window.history.state, "", window.location.pathname)
  }
  const use = useMutation({
    mutationFn: async (value: string) => remember(await unwrap(api.POST("/api/v1/auth/link", { body: { token: value } }))),
    onSuccess: (session) => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, session)
      void navigate(session.mustSetPassword ? { to: "/set-password", replace: true } : { to: "/accounts", replace: true })
    }
  })
  const started = useRef(false)
  useEffect(() => {
    // Once, also under StrictMode's double effects: the link is single use.
    if (started.current || token.current === "" || token.current === undefined) return
    started.current = true
    use.mutate(token.current)
  }, [use])
  return (
    <AuthCard title="Signing in" footer={<p><Link to="/sign-in">Sign in with a password</Link></p>}>
      {token.current === ""
        ? <ErrorMessage error={new Error("This address has no sign-in link in it. Open the whole link you were given.")} />
        : use.isError
        ? <ErrorMessage error={use.error} />
        : <Loading what="Signing you in" />}
    </AuthCard>
  )
}
