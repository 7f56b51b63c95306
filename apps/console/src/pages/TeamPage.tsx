import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ApiError } from "../api/ApiError.ts"
import { api, unwrap } from "../api/client.ts"
import { useSession } from "../api/session.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { ConfirmRowAction } from "../components/ConfirmRowAction.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { InviteForm } from "./settings/InviteForm.tsx"
import { PendingInvitations } from "./settings/PendingInvitations.tsx"
import { roleName, roles } from "./settings/roles.ts"

const membersKey = ["members"] as const
const invitationsKey = ["invitations"] as const

type Member = Awaited<ReturnType<typeof listMembers>>[number]
const listMembers = () => unwrap(api.GET("/api/v1/members"))

// Settings > Team: the members and their roles, inviting by e-mail, changing a role, removing someone, and the
// invitations not yet accepted. Who may do what is the API's to say: the invitations answer only to those who
// manage the team, so the page offers the changes when they load and shows the API's message otherwise.
export const TeamPage = () => {
  const session = useSession()
  const members = useQuery({ queryKey: membersKey, queryFn: listMembers })
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: () => unwrap(api.GET("/api/v1/members/invitations")),
    retry: (count, error) => !(error instanceof ApiError && error.status === 403) && count < 2
  })
  const manages = invitations.isSuccess
  const readOnly = invitations.error instanceof ApiError && invitations.error.status === 403 ? invitations.error : undefined
  const [removing, setRemoving] = useState<Member | undefined>(undefined)
  const queryClient = useQueryClient()
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { readonly id: string; readonly role: typeof roles[number] }) =>
      unwrap(api.PATCH("/api/v1/members/{id}", { params: { path: { id } }, body: { role } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey })
  })
  return (
    <Page title="Team" description={`The people of ${session.workspace.name} and what each may do.`}>
      {readOnly === undefined ? null : <Banner tone="info"><p>{readOnly.message}.</p></Banner>}
      <section className="card stack" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <ErrorMessage error={changeRole.error} />
        <QueryState query={members} what="members" empty={<p>No members.</p>}>
          {(rows) => (
            <Table
              caption="Members"
              captionHidden
              rows={rows}
              rowKey={(row) => row.id}
              columns={[
                {
                  header: "E-mail",
                  cell: (row) => (
                    <>
                      <span>{row.email}</span>
                      {row.id === session.workspace.memberId ? <span className="badge">You</span> : null}
                    </>
                  )
                },
                {
                  header: "Role",
                  cell: (row) =>
                    manages
                      ? (
                        <select
                          className="inline-select"
                          aria-label={`Role of ${row.email}`}
                          value={row.role}
                          disabled={changeRole.isPending && changeRole.variables.id === row.id}
                          onChange={(event) => changeRole.mutate({ id: row.id, role: event.currentTarget.value as typeof roles[number] })}
                        >
                          {roles.map((role) => <option key={role} value={role}>{roleName(role)}</option>)}
                        </select>
                      )
                      : roleName(row.role)
                },
                { header: "Member since", cell: (row) => when(row.createdAt) },
                ...(manages
                  ? [{
                    header: "Actions",
                    align: "end" as const,
                    cell: (row: Member) => (
                      <Button variant="danger" onClick={() => setRemoving(row)} aria-label={`Remove ${row.email}`}>Remove</Button>
                    )
                  }]
                  : [])
              ]}
            />
          )}
        </QueryState>
      </section>
      {manages
        ? (
          <>
            <section className="card stack" aria-labelledby="invite-heading">
              <h2 id="invite-heading">Invite someone</h2>
              <InviteForm />
            </section>
            <section className="card stack" aria-labelledby="invitations-heading">
              <h2 id="invitations-heading">Pending invitations</h2>
              <PendingInvitations query={invitations} />
            </section>
          </>
        )
        : readOnly === undefined && invitations.isError
        ? <ErrorMessage error={invitations.error} title="Could not load the invitations" />
        : null}
      <ConfirmRowAction
        row={removing}
        title="Remove this member?"
        confirm="Remove member"
        action={(id) => unwrap(api.DELETE("/api/v1/members/{id}", { params: { path: { id } } }))}
        listKey={membersKey}
        onClose={() => setRemoving(undefined)}
      >
        {(member) => (
          <>
            <strong>{member.email}</strong> ({member.role}) leaves the workspace at once, and the API keys acting for
            them stop working.
          </>
        )}
      </ConfirmRowAction>
    </Page>
  )
}
