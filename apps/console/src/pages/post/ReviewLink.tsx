import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ApiError } from "../../api/ApiError.ts"
import { Banner, ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { CopyButton } from "../../components/CopyButton.tsx"
import { SelectField, TextField } from "../../components/Field.tsx"
import { QueryState } from "../../components/Page.tsx"
import { when } from "../../components/when.ts"
import type { Post } from "./postQuery.ts"

// Settings > Workspace lists the same profiles under this key.
const profilesKey = ["review-profiles"] as const
const newProfile = "new"

// A signed link showing the post to someone outside the workspace (a client), who approves it or asks for
// changes without signing in. It is for one review profile: pick one, or name a new one here.
export const ReviewLink = ({ post }: { readonly post: Post }) => {
  const queryClient = useQueryClient()
  const profiles = useQuery({ queryKey: profilesKey, queryFn: () => unwrap(api.GET("/api/v1/review-profiles")) })
  const [chosen, setChosen] = useState("")
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const create = useMutation({
    mutationFn: async (choice: string) => {
      const profileId = choice === newProfile
        ? (await unwrap(api.POST("/api/v1/review-profiles", { body: email.trim() === "" ? { name } : { name, email } }))).id
        : choice
      return unwrap(api.POST("/api/v1/posts/{id}/review-links", { params: { path: { id: post.id } }, body: { profileId } }))
    },
    onSuccess: async (link) => {
      setChosen(link.profileId)
      setName("")
      setEmail("")
      await queryClient.invalidateQueries({ queryKey: profilesKey })
    }
  })
  const link = create.data
  const about = (field: string) => (create.error instanceof ApiError ? create.error.about(field) : undefined)
  return (
    <QueryState query={profiles} what="review profiles">
      {(rows) => {
        const picked = chosen === "" ? (rows[0]?.id ?? newProfile) : chosen
        return (
          <form
            className="stack"
            onSubmit={(event) => {
              event.preventDefault()
              create.mutate(picked)
            }}
            noValidate
            aria-labelledby="review-heading"
          >
            <p className="muted">
              A client or colleague without an account opens the link, sees the post as each network will show it, and
              approves it or asks for changes.
            </p>
            <div className="form-row">
              <SelectField label="Reviewer" value={picked} onChange={(event) => setChosen(event.currentTarget.value)}>
                {rows.map((profile) => (
                  <option key={profile.id} value={profile.id}>
                    {profile.email === null ? profile.name : `${profile.name} (${profile.email})`}
                  </option>
                ))}
                <option value={newProfile}>Someone new…</option>
              </SelectField>
              {picked === newProfile
                ? (
                  <>
                    <TextField label="Reviewer's name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={about("name")} />
                    <TextField
                      label="Reviewer's e-mail (optional)"
                      type="email"
                      value={email}
                      onChange={(event) => setEmail(event.currentTarget.value)}
                      error={about("email")}
                    />
                  </>
                )
                : null}
            </div>
            <ErrorMessage error={create.error} />
            <div>
              <Button type="submit" busy={create.isPending}>Create review link</Button>
            </div>
            {link === undefined ? null : (
              <div className="secret">
                <Banner tone="success"><p>Review link created. Send it to the reviewer.</p></Banner>
                <label>
                  <span>Review link</span>
                  <input className="secret-value" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
                </label>
                <CopyButton value={link.url} label="Copy review link" />
                <p className="field-hint">Works until {when(link.expiresAt)}.</p>
              </div>
            )}
          </form>
        )
      }}
    </QueryState>
  )
}
