import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { SecretValue } from "../../components/CopyButton.tsx"
import { Dialog } from "../../components/Dialog.tsx"
import { SelectField, TextField } from "../../components/Field.tsx"
import { roleDescriptions, roleName, type Role } from "./roles.ts"

const workspaceKey = ""

// Making a key: its name and whom it acts for (a member, and so their role, or the whole workspace); then
// the key itself, shown this once with a copy button.
export const CreateKeyDialog = ({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) => {
  const session = useSession()
  const queryClient = useQueryClient()
  const members = useQuery({ queryKey: ["members"], queryFn: () => unwrap(api.GET("/api/v1/members")), enabled: open })
  const [name, setName] = useState("")
  const [actingFor, setActingFor] = useState(session.workspace.memberId)
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/v1/keys", { body: actingFor === workspaceKey ? { name } : { name, memberId: actingFor } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["keys"] })
  })
  const close = () => {
    create.reset()
    setName("")
    setActingFor(session.workspace.memberId)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  const made = create.data
  const error = create.error instanceof ApiError ? create.error : undefined
  return (
    <Dialog
      open={open}
      title={made === undefined ? "Create an API key" : "Key created"}
      onClose={close}
      {...(made === undefined ? {} : { footer: <Button variant="primary" onClick={close}>Done</Button> })}
    >
      {made === undefined
        ? (
          <form className="stack" onSubmit={submit} noValidate>
            <ErrorMessage error={error !== undefined && error.details.length > 0 ? undefined : create.error} />
            <TextField
              label="Name"
              hint="What the key is for, such as the program that uses it."
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={error?.about("name")}
              required
            />
            <SelectField
              label="Acts as"
              hint="The key has this member's role. A workspace key may do anything."
              value={actingFor}
              onChange={(event) => setActingFor(event.currentTarget.value)}
              error={error?.about("memberId")}
            >
              {(members.data ?? [{ id: session.workspace.memberId, email: session.person.email, role: session.workspace.role }]).map((member) => (
                <option key={member.id} value={member.id}>
                  {member.email}: {roleName(member.role)}, {roleDescriptions[member.role as Role]}
                </option>
              ))}
              <option value={workspaceKey}>Workspace key: may do anything</option>
            </SelectField>
            <div className="form-actions">
              <Button type="submit" variant="primary" busy={create.isPending}>Create key</Button>
              <Button onClick={close}>Cancel</Button>
            </div>
          </form>
        )
        : (
          <div className="stack">
            <p>
              Send it as <code>Authorization: Bearer &lt;key&gt;</code>. It acts as{" "}
              {made.member === null ? "the whole workspace" : `${made.member.email} (${made.member.role})`}.
            </p>
            <SecretValue
              label="Key"
              value={made.key}
              warning="Copy it now: Herald shows it only this once and keeps only a fingerprint. If it is lost, revoke it and create another."
            />
          </div>
        )}
    </Dialog>
  )
}
