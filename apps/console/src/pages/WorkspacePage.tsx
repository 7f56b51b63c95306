import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { sessionQuery } from "../api/session.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { TextField } from "../components/Field.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { ReviewProfiles } from "./settings/ReviewProfiles.tsx"
import { TimeZoneField } from "./settings/TimeZoneField.tsx"
import { apiForm } from "../components/apiForm.ts"

export const workspaceKey = ["workspace"] as const

type Workspace = Awaited<ReturnType<typeof getWorkspace>>
const getWorkspace = () => unwrap(api.GET("/api/v1/workspace"))

// Settings > Workspace: its name, whether posts (and assistants' posts) need approval, its time zone, and
// the review profiles that client review links are made for.
export const WorkspacePage = () => {
  const workspace = useQuery({ queryKey: workspaceKey, queryFn: getWorkspace })
  return (
    <Page title="Workspace" description="Settings for everyone in this workspace.">
      <section className="card stack" aria-labelledby="settings-heading">
        <h2 id="settings-heading">Settings</h2>
        <QueryState query={workspace} what="the workspace">
          {(current) => <SettingsForm current={current} />}
        </QueryState>
      </section>
      <section className="card stack" aria-labelledby="profiles-heading">
        <h2 id="profiles-heading">Review profiles</h2>
        <p>
          People outside the workspace (a client, a legal team) who review posts awaiting approval through a link,
          without signing in.
        </p>
        <ReviewProfiles />
      </section>
    </Page>
  )
}

const SettingsForm = ({ current }: { readonly current: Workspace }) => {
  const queryClient = useQueryClient()
  const [name, setName] = useState(current.name)
  const [approvalRequired, setApprovalRequired] = useState(current.approvalRequired)
  const [assistantApproval, setAssistantApproval] = useState(current.assistantApproval)
  const [timeZone, setTimeZone] = useState(current.timeZone)
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH("/api/v1/workspace", { body: { name, approvalRequired, assistantApproval, timeZone } })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(workspaceKey, saved)
      // The workspace's name shows in the top bar, from the session.
      await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })
    }
  })
  const form = apiForm(save)
  return (
    <form className="stack" onSubmit={form.onSubmit} noValidate>
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <Banner tone="success"><p>Settings saved.</p></Banner> : null}
      <TextField label="Name" {...form.field("name", name, setName)} />
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={approvalRequired} onChange={(event) => setApprovalRequired(event.currentTarget.checked)} />
          <span>Approvals required</span>
        </label>
        <p className="field-hint">Posts that editors schedule wait for an owner's or admin's approval before they go out.</p>
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={assistantApproval} onChange={(event) => setAssistantApproval(event.currentTarget.checked)} />
          <span>Assistants' posts need approval</span>
        </label>
        <p className="field-hint">
          Posts that assistants connected by OAuth create or schedule wait for an owner's or admin's approval, unless the
          person who connected one let it publish without approval. API keys are not affected.
        </p>
      </div>
      <TimeZoneField value={timeZone} onChange={setTimeZone} error={form.about("timeZone")} />
      <div>
        <Button type="submit" variant="primary" busy={save.isPending}>Save settings</Button>
      </div>
    </form>
  )
}
