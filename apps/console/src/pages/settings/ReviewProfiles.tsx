import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { ConfirmRowAction } from "../../components/ConfirmRowAction.tsx"
import { TextField } from "../../components/Field.tsx"
import { QueryState } from "../../components/Page.tsx"
import { Table } from "../../components/Table.tsx"
import { when } from "../../components/when.ts"
import { apiForm } from "../../components/apiForm.ts"

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
      <ConfirmRowAction
        row={deleting}
        title="Delete this review profile?"
        confirm="Delete profile"
        action={(id) => unwrap(api.DELETE("/api/v1/review-profiles/{id}", { params: { path: { id } } }))}
        listKey={profilesKey}
        onClose={() => setDeleting(undefined)}
      >
        {(profile) => <>The review links sent to <strong>{profile.name}</strong> stop working at once.</>}
      </ConfirmRowAction>
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
  const form = apiForm(add)
  return (
    <form className="stack" onSubmit={form.onSubmit} noValidate aria-labelledby="add-profile-heading">
      <h3 id="add-profile-heading">Add a review profile</h3>
      <ErrorMessage error={add.error} />
      <div className="form-row">
        <TextField label="Reviewer's name" {...form.field("name", name, setName)} />
        <TextField
          label="Reviewer's e-mail (optional)"
          type="email"
          {...form.field("email", email, setEmail)}
        />
      </div>
      <div>
        <Button type="submit" variant="primary" busy={add.isPending}>Add profile</Button>
      </div>
    </form>
  )
}
