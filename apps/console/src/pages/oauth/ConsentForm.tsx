import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { SelectField } from "../../components/Field.tsx"
import { may } from "../../api/session.ts"
import { article, roleName } from "../settings/roles.ts"
import { abilities } from "./abilities.ts"
import { approveRequest, type AuthorizationRequest, denyRequest } from "./consentQueries.ts"
import { returnAddress } from "./returnAddress.ts"

// The decision: which workspace (a picker when the person has several), what the assistant will be able to
// do there, whether it may publish without approval (offered where the API says the person's role may), and
// Allow or Deny. Either answer sends the browser back to the assistant with the API's
// `redirectTo` (a code, or error=access_denied).
export const ConsentForm = ({ request, email, preferredWorkspaceId }: {
  readonly request: AuthorizationRequest
  readonly email: string
  readonly preferredWorkspaceId: string
}) => {
  const [workspaceId, setWorkspaceId] = useState(
    () => (request.workspaces.some((workspace) => workspace.id === preferredWorkspaceId) ? preferredWorkspaceId : request.workspaces[0]?.id ?? "")
  )
  const workspace = request.workspaces.find((candidate) => candidate.id === workspaceId)
  const [publishesDirectly, setPublishesDirectly] = useState(false)
  // Only where it is offered: a box ticked for one workspace does not carry over to another.
  const direct = publishesDirectly && workspace?.mayPublishDirectly === true
  const answer = useMutation({
    mutationFn: (allow: boolean) => (allow ? approveRequest(request.id, workspaceId, direct) : denyRequest(request.id)),
    onSuccess: ({ redirectTo }) => window.location.assign(redirectTo)
  })
  const back = returnAddress(request.redirectUri)
  // Once answered, the page stays as it is while the browser leaves for the assistant.
  const leaving = answer.isSuccess
  return (
    <div className="stack">
      <p>
        <strong>{request.client.name}</strong> asks to use Herald as you ({email}).
      </p>
      {workspace === undefined
        ? <ErrorMessage error={new Error("You are in no workspace this assistant could use. Ask an owner for an invitation.")} />
        : (
          <>
            {request.workspaces.length > 1
              ? (
                <SelectField
                  label="Workspace"
                  hint="The assistant works in this workspace only, with your role in it."
                  value={workspaceId}
                  disabled={answer.isPending || leaving}
                  onChange={(event) => setWorkspaceId(event.currentTarget.value)}
                >
                  {request.workspaces.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>{candidate.name} ({roleName(candidate.role)})</option>
                  ))}
                </SelectField>
              )
              : <p>It will work in <strong>{workspace.name}</strong>, where you are {article(workspace.role)} {workspace.role}.</p>}
            <section className="consent-abilities" aria-labelledby="consent-abilities-title">
              <h2 id="consent-abilities-title">It will be able to</h2>
              <ul>
                {abilities(workspace.role, workspace.permissions).map((line) => <li key={line}>{line}</li>)}
              </ul>
              <p className="field-hint">
                It acts as you, with your role, until you disconnect it in Settings, Connected assistants.
              </p>
            </section>
            {workspace.mayPublishDirectly
              ? (
                <div className="field">
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={publishesDirectly}
                      disabled={answer.isPending || leaving}
                      onChange={(event) => setPublishesDirectly(event.currentTarget.checked)}
                    />
                    <span>Let it publish without approval</span>
                  </label>
                  <p className="field-hint">
                    Otherwise, the posts it creates or schedules wait for an owner's or admin's approval while the workspace asks
                    for it.
                  </p>
                </div>
              )
              : !may(workspace, "change")
              ? null
              : (
                <p className="field-hint">
                  The posts it creates or schedules wait for an owner's or admin's approval while the workspace asks for it.
                </p>
              )}
          </>
        )}
      <p>
        {back.onThisComputer
          ? <>Your answer will return you to a program on this computer, at <strong>{back.host}</strong>.</>
          : <>Your answer will return you to <strong>{back.host}</strong>.</>}
      </p>
      <p className="field-hint">
        The name is the assistant's own: allow it only if you have just started connecting it to Herald.
      </p>
      <ErrorMessage error={answer.error} />
      {leaving ? <p role="status">Returning you to {back.host}…</p> : null}
      <div className="consent-actions">
        <Button
          variant="primary"
          busy={answer.isPending && answer.variables}
          disabled={workspace === undefined || answer.isPending || leaving}
          onClick={() => answer.mutate(true)}
        >
          Allow
        </Button>
        <Button busy={answer.isPending && !answer.variables} disabled={answer.isPending || leaving} onClick={() => answer.mutate(false)}>
          Deny
        </Button>
      </div>
    </div>
  )
}
