import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { Banner, ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { CopyButton } from "../../components/CopyButton.tsx"
import { SelectField, TextField } from "../../components/Field.tsx"
import { roleDescriptions, roleName, roles, type Role } from "./roles.ts"
import { apiForm } from "../../components/apiForm.ts"

// Inviting by e-mail with a role. The answer carries the invitation's link: Herald e-mails it when it has a
// mail server (HERALD_SMTP_URL), and the link is shown either way so it can be sent by hand.
export const InviteForm = () => {
  const queryClient = useQueryClient()
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<Role>("editor")
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/members/invitations", { body: { email, role } })),
    onSuccess: () => {
      setEmail("")
      return queryClient.invalidateQueries({ queryKey: ["invitations"] })
    }
  })
  const form = apiForm(invite)
  const sent = invite.data
  return (
    <form className="stack" onSubmit={form.onSubmit} noValidate>
      <ErrorMessage error={invite.error} />
      {sent === undefined ? null : (
        <Banner tone="success" title={`${sent.email} is invited as ${sent.role}`}>
          <p>
            Herald e-mails this link when it has a mail server; otherwise send it yourself. It works once, until{" "}
            {new Date(sent.expiresAt).toLocaleDateString()}.
          </p>
          <p className="invitation-link">
            <code>{sent.url}</code>
          </p>
          <CopyButton value={sent.url} label="Copy invitation link" />
        </Banner>
      )}
      <div className="form-row">
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          {...form.field("email", email, setEmail)}
        />
        <SelectField
          label="Role"
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as Role)}
          error={form.about("role")}
        >
          {roles.map((each) => <option key={each} value={each}>{roleName(each)}: {roleDescriptions[each]}</option>)}
        </SelectField>
      </div>
      <div>
        <Button type="submit" variant="primary" busy={invite.isPending}>Send invitation</Button>
      </div>
    </form>
  )
}
