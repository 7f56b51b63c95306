import * as Permissions from "@herald/domain/Permissions"
import { may, useSession } from "../api/session.ts"
import { Page } from "../components/Page.tsx"
import { AwaitingApproval } from "./approvals/AwaitingApproval.tsx"
import { SentBack } from "./approvals/SentBack.tsx"
import "./post/post.css"

// Approvals: the posts awaiting an owner's or admin's decision, decided in place, and the posts sent back
// for changes with the reviewer's note (one who writes posts but may not review them sees their own).
export const ApprovalsPage = () => {
  const { workspace } = useSession()
  const writerOnly = may(workspace, "change") && !may(workspace, "approve")
  return (
    <Page
      title="Approvals"
      description={`Posts submitted for approval wait here until ${Permissions.whoMay("approve")} approves them or sends them back with a note.`}
    >
      <section className="stack" aria-labelledby="awaiting-heading">
        <h2 id="awaiting-heading">Awaiting approval</h2>
        <AwaitingApproval />
      </section>
      <section className="stack" aria-labelledby="sent-back-heading">
        <h2 id="sent-back-heading">{writerOnly ? "Your posts sent back for changes" : "Sent back for changes"}</h2>
        <SentBack mineOnly={writerOnly} />
      </section>
    </Page>
  )
}
