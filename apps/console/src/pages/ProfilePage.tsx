import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { remember, sessionQuery, useSession } from "../api/session.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { TextField } from "../components/Field.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { PasswordForm } from "../components/PasswordForm.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { apiForm } from "../components/apiForm.ts"

// The person's own settings: name, password, and where they are signed in.
export const ProfilePage = () => {
  const session = useSession()
  const [changed, setChanged] = useState(false)
  return (
    <Page title="Profile" description={`Signed in as ${session.person.email}.`}>
      <section className="card stack" aria-labelledby="name-heading">
        <h2 id="name-heading">Name</h2>
        <NameForm current={session.person.name ?? ""} />
      </section>
      <section className="card stack" aria-labelledby="password-heading">
        <h2 id="password-heading">{session.person.hasPassword ? "Change password" : "Set a password"}</h2>
        {changed ? <Banner tone="success"><p>Password changed. Your other sessions have been signed out.</p></Banner> : null}
        <PasswordForm
          askCurrent={session.person.hasPassword}
          submitLabel={session.person.hasPassword ? "Change password" : "Set password"}
          onDone={() => setChanged(true)}
        />
      </section>
      <section className="card stack" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p>Where you are signed in. Sign out of any you do not recognise.</p>
        <Sessions />
      </section>
    </Page>
  )
}

const NameForm = ({ current }: { readonly current: string }) => {
  const queryClient = useQueryClient()
  const [name, setName] = useState(current)
  const save = useMutation({
    mutationFn: async () => remember(await unwrap(api.PATCH("/api/v1/auth/profile", { body: { name } }))),
    onSuccess: (session) => queryClient.setQueryData(sessionQuery.queryKey, session)
  })
  const form = apiForm(save)
  return (
    <form onSubmit={form.onSubmit} className="stack" noValidate>
      <ErrorMessage error={save.error} />
      {save.isSuccess ? <Banner tone="success"><p>Name saved.</p></Banner> : null}
      <TextField
        label="Name"
        autoComplete="name"
        {...form.field("name", name, setName)}
      />
      <div>
        <Button type="submit" variant="primary" busy={save.isPending}>Save name</Button>
      </div>
    </form>
  )
}

const Sessions = () => {
  const queryClient = useQueryClient()
  const sessions = useQuery({
    queryKey: ["sessions"],
    queryFn: () => unwrap(api.GET("/api/v1/auth/sessions"))
  })
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/auth/sessions/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["sessions"] })
  })
  return (
    <QueryState query={sessions} what="sessions" empty={<p>No sessions.</p>}>
      {(rows) => (
        <>
          <ErrorMessage error={revoke.error} />
          <Table
            caption="Your sessions"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              {
                header: "Browser",
                cell: (row) => (
                  <>
                    {describeAgent(row.userAgent)}
                    {row.current ? <span className="badge">This browser</span> : null}
                  </>
                )
              },
              { header: "Address", cell: (row) => row.address ?? "—" },
              { header: "Signed in", cell: (row) => when(row.createdAt) },
              { header: "Last used", cell: (row) => when(row.lastUsedAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) =>
                  row.current ? null : (
                    <Button
                      onClick={() => revoke.mutate(row.id)}
                      busy={revoke.isPending && revoke.variables === row.id}
                      aria-label={`Sign out ${describeAgent(row.userAgent)}, signed in ${when(row.createdAt)}`}
                    >
                      Sign out
                    </Button>
                  )
              }
            ]}
          />
        </>
      )}
    </QueryState>
  )
}

// "Chrome on Linux" from a user agent string: enough to tell sessions apart.
const describeAgent = (agent: string | null): string => {
  if (agent === null || agent === "") return "Unknown browser"
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "A program"
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows" : /Mac OS X/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : undefined
  return system === undefined ? browser : `${browser} on ${system}`
}
