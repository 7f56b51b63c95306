import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { ConfirmDialog } from "../../components/Dialog.tsx"
import { TextField } from "../../components/Field.tsx"
import { QueryState } from "../../components/Page.tsx"
import { Table } from "../../components/Table.tsx"
import { when } from "../../components/when.ts"

const profilesKey = ["review-profiles"] as const

interface Profile {
  readonly id: string
  readonly name: string
  readonly email: string | null
  readonly createdAt: string
}

// The workspace's review profiles: listed, added (a name and an optional e-mail), and deleted, which stops
// their review links.
export const ReviewProfiles = () => {
  const profiles = useQuery({ queryKey: profilesKey, queryFn: () => unwrap(api.GET("/api/v1/review-profiles")) })
  const [deleting, setDeleting] = useState<Profile | undefined>(undefined)
  return (
    <>
      <QueryState query={profiles} what="review profiles" empty={<p>No review profiles yet.</p>}>
        {(rows) => (
          <Table
            caption="Review profiles"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              { header: "Name", cell: (row) => row.name },
              { header: "E-mail", cell: (row) => row.email ?? <span className="muted">None</span> },
              { header: "Added", cell: (row) => when(row.createdAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) => (
                  <Button variant="danger" onClick={() => setDeleting(row)} aria-label={`Delete review profile ${row.name}`}>Delete</Button>
                )
              }
            ]}
          />
        )}
      </QueryState>
      <AddProfile />
      <DeleteProfile profile={deleting} onClose={() => setDeleting(undefined)} />
    </>
  )
}

const AddProfile = () => {
  const queryClient = useQueryClient()
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const add = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/review-profiles", { body: email.trim() === "" ? { name } : { name, email } })),
    onSuccess: () => {
      setName("")
      setEmail("")
      return queryClient.invalidateQueries({ queryKey: profilesKey })
    }
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    add.mutate()
  }
  const error = add.error instanceof ApiError ? add.error : undefined
  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="add-profile-heading">
      <h3 id="add-profile-heading">Add a review profile</h3>
      <ErrorMessage error={add.error} />
      <div className="form-row">
        <TextField label="Reviewer's name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={error?.about("name")} />
        <TextField
          label="Reviewer's e-mail (optional)"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={error?.about("email")}
        />
      </div>
      <div>
        <Button type="submit" variant="primary" busy={add.isPending}>Add profile</Button>
      </div>
    </form>
  )
}

const DeleteProfile = ({ profile, onClose }: { readonly profile: Profile | undefined; readonly onClose: () => void }) => {
  const queryClient = useQueryClient()
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/review-profiles/{id}", { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profilesKey })
      close()
    }
  })
  const close = () => {
    remove.reset()
    onClose()
  }
  return (
    <ConfirmDialog
      open={profile !== undefined}
      title="Delete this review profile?"
      confirm="Delete profile"
      busy={remove.isPending}
      onConfirm={() => profile !== undefined && remove.mutate(profile.id)}
      onClose={close}
    >
      {profile === undefined ? null : (
        <div className="stack">
          <ErrorMessage error={remove.error} />
          <p>The review links sent to <strong>{profile.name}</strong> stop working at once.</p>
        </div>
      )}
    </ConfirmDialog>
  )
}
