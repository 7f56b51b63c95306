import { useMutation } from "@tanstack/react-query"
import { Link } from "@tanstack/react-router"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { AuthCard } from "../components/AuthCard.tsx"
import { Button } from "../components/Button.tsx"
import { TextField } from "../components/Field.tsx"
import { apiForm } from "../components/apiForm.ts"

// Ask for a password reset. Without e-mail configured there is nothing to send: an owner prints a link.
export const ResetPage = () => {
  const [email, setEmail] = useState("")
  const ask = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/password-reset", { body: { email } }))
  })
  const form = apiForm(ask)
  return (
    <AuthCard title="Reset your password" footer={<p><Link to="/sign-in">Back to sign-in</Link></p>}>
      {ask.data?.email === "sent"
        ? (
          <Banner tone="success" title="Check your e-mail">
            <p>If {email} belongs to a person here, a link to set a new password is on its way. It works for one hour.</p>
          </Banner>
        )
        : ask.data?.email === "unavailable"
        ? (
          <Banner tone="warning" title="This Herald sends no e-mail">
            <p>
              Ask an owner of your workspace to make you a sign-in link with{" "}
              <code>./herald member login-link --workspace &lt;id&gt; --email {email || "<e-mail>"}</code> and open it;
              it lets you set a new password.
            </p>
          </Banner>
        )
        : (
          <form onSubmit={form.onSubmit} className="stack" noValidate>
            <p>Give the e-mail address you sign in with; we send it a link to set a new password.</p>
            <ErrorMessage error={ask.error} />
            <TextField
              label="E-mail"
              type="email"
              autoComplete="username"
              {...form.field("email", email, setEmail)}
            />
            <Button type="submit" variant="primary" busy={ask.isPending}>Send reset link</Button>
          </form>
        )}
    </AuthCard>
  )
}
