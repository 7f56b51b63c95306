import type { components } from "@herald/client/api"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate } from "@tanstack/react-router"
import { useRef, useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { remember, sessionQuery } from "../api/session.ts"
import { article } from "./settings/roles.ts"
import { ErrorMessage } from "../components/Banner.tsx"
import { AuthCard } from "../components/AuthCard.tsx"
import { Button } from "../components/Button.tsx"
import { NewPasswordField, TextField } from "../components/Field.tsx"
import { Loading } from "../components/Page.tsx"
import { apiForm } from "../components/apiForm.ts"

type Preview = components["schemas"]["InvitationPreview"]

// /app/invitation#<token>: what the invitation is for, then joining as a new person (name and password) or
// as the person who already has an account (signed in, or with their password).
export const InvitationPage = () => {
  const token = useRef<string | undefined>(undefined)
  if (token.current === undefined) {
    token.current = window.location.hash.slice(1)
    if (token.current !== "") window.history.replaceState(window.history.state, "", window.location.pathname)
  }
  const value = token.current
  const preview = useQuery({
    queryKey: ["invitation", value],
    queryFn: () => unwrap(api.POST("/api/v1/auth/invitation", { body: { token: value } })),
    enabled: value !== "",
    retry: false,
    staleTime: Infinity
  })
  // Who is signed in here already, if anyone: such a person accepts with one click.
  const session = useQuery({ ...sessionQuery, retry: false })
  if (value === "") {
    return (
      <AuthCard title="Invitation" footer={<p><Link to="/sign-in">Sign in</Link></p>}>
        <ErrorMessage error={new Error("This address has no invitation in it. Open the whole link you were given.")} />
      </AuthCard>
    )
  }
  if (preview.isPending) return <AuthCard title="Invitation"><Loading what="Reading the invitation" /></AuthCard>
  if (preview.isError) {
    return (
      <AuthCard title="Invitation" footer={<p><Link to="/sign-in">Sign in</Link></p>}>
        <ErrorMessage error={preview.error} />
      </AuthCard>
    )
  }
  const invitation = preview.data
  const signedInAsInvitee = session.data !== undefined && session.data.person.email.toLowerCase() === invitation.email.toLowerCase()
  return (
    <AuthCard title={`Join ${invitation.workspace.name}`}>
      <p>
        You are invited to <strong>{invitation.workspace.name}</strong> as {article(invitation.role)}{" "}
        <strong>{invitation.role}</strong>, with the address <strong>{invitation.email}</strong>.
      </p>
      <Accept token={value} invitation={invitation} signedIn={signedInAsInvitee} />
    </AuthCard>
  )
}

const Accept = ({ token, invitation, signedIn }: {
  readonly token: string
  readonly invitation: Preview
  readonly signedIn: boolean
}) => {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const accept = useMutation({
    mutationFn: async () =>
      remember(
        await unwrap(api.POST("/api/v1/auth/invitation/accept", {
          body: !invitation.personExists ? { token, name, password } : signedIn ? { token } : { token, password }
        }))
      ),
    onSuccess: (session) => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, session)
      void navigate({ to: "/accounts" })
    }
  })
  const form = apiForm(accept)
  // An account without a password is only theirs to use through its link: accepting takes signing in first.
  if (invitation.personExists && !signedIn && !invitation.passwordSet) {
    return (
      <p>
        You already have a Herald account with this address, without a password: sign in with the link you were
        given (or <Link to="/sign-in">reset your password</Link>), then open this invitation again.
      </p>
    )
  }
  return (
    <form onSubmit={form.onSubmit} className="stack" noValidate>
      <ErrorMessage error={accept.error} />
      {!invitation.personExists
        ? (
          <>
            <TextField
              label="Your name"
              autoComplete="name"
              {...form.field("name", name, setName)}
            />
            <NewPasswordField label="Choose a password" {...form.field("password", password, setPassword)} />
          </>
        )
        : signedIn
        ? null
        : (
          <>
            <p>You already have a Herald account with this address: sign in to accept.</p>
            <input type="email" hidden readOnly autoComplete="username" value={invitation.email} />
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              {...form.field("password", password, setPassword)}
            />
          </>
        )}
      <div>
        <Button type="submit" variant="primary" busy={accept.isPending}>Accept invitation</Button>
      </div>
    </form>
  )
}
