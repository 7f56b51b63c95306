import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { sessionQuery } from "../api/session.ts"
import { ErrorMessage } from "./Banner.tsx"
import { Button } from "./Button.tsx"
import { NewPasswordField, TextField } from "./Field.tsx"
import { apiForm } from "./apiForm.ts"

// Set or change the password (PUT /api/v1/auth/password). The current one is asked for when the person has
// one, unless they have just come in through a link (the API decides; it names the field when missing).
export const PasswordForm = ({ askCurrent, submitLabel, onDone }: {
  readonly askCurrent: boolean
  readonly submitLabel: string
  readonly onDone: () => void
}) => {
  const queryClient = useQueryClient()
  const [current, setCurrent] = useState("")
  const [password, setPassword] = useState("")
  const change = useMutation({
    mutationFn: () =>
      unwrap(api.PUT("/api/v1/auth/password", {
        body: askCurrent ? { password, currentPassword: current } : { password }
      })),
    onSuccess: async () => {
      setCurrent("")
      setPassword("")
      await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })
      await queryClient.invalidateQueries({ queryKey: ["sessions"] })
      onDone()
    }
  })
  const form = apiForm(change)
  return (
    <form onSubmit={form.onSubmit} className="stack" noValidate>
      <ErrorMessage error={change.error} />
      {askCurrent
        ? (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...form.field("currentPassword", current, setCurrent)}
          />
        )
        : null}
      <NewPasswordField label="New password" {...form.field("password", password, setPassword)} />
      <div>
        <Button type="submit" variant="primary" busy={change.isPending}>{submitLabel}</Button>
      </div>
    </form>
  )
}
