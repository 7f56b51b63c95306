import { useMutation, useQueryClient } from "@tanstack/react-query"
import { getRouteApi, Link, useRouter } from "@tanstack/react-router"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { remember, sessionQuery } from "../api/session.ts"
import { ErrorMessage } from "../components/Banner.tsx"
import { AuthCard } from "../components/AuthCard.tsx"
import { Button } from "../components/Button.tsx"
import { TextField } from "../components/Field.tsx"
import { apiForm } from "../components/apiForm.ts"

const route = getRouteApi("/sign-in")

export const SignInPage = () => {
  const { redirect } = route.useSearch()
  const router = useRouter()
  const queryClient = useQueryClient()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const signIn = useMutation({
    mutationFn: async () => remember(await unwrap(api.POST("/api/v1/auth/sign-in", { body: { email, password } }))),
    onSuccess: (session) => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, session)
      if (session.mustSetPassword) void router.navigate({ to: "/set-password" })
      else if (redirect === undefined) void router.navigate({ to: "/accounts" })
      else void router.navigate({ href: redirect })
    }
  })
  const form = apiForm(signIn)
  return (
    <AuthCard
      title="Sign in"
      footer={<p>No password yet? Ask an owner of your workspace for an invitation or a sign-in link.</p>}
    >
      <form onSubmit={form.onSubmit} className="stack" noValidate>
        <ErrorMessage error={signIn.error} />
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          required
          {...form.field("email", email, setEmail)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          {...form.field("password", password, setPassword)}
        />
        <Button type="submit" variant="primary" busy={signIn.isPending}>Sign in</Button>
        <p>
          <Link to="/reset">Forgot password?</Link>
        </p>
      </form>
    </AuthCard>
  )
}
