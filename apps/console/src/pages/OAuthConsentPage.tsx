import { useQuery } from "@tanstack/react-query"
import { getRouteApi, Link } from "@tanstack/react-router"
import { ApiError } from "../api/ApiError.ts"
import { useSession } from "../api/session.ts"
import { AuthCard } from "../components/AuthCard.tsx"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { Loading } from "../components/Page.tsx"
import { ConsentForm } from "./oauth/ConsentForm.tsx"
import { readRequest } from "./oauth/consentQueries.ts"
import "./oauth/oauth.css"

const route = getRouteApi("/oauth/consent")
const title = "Connect an assistant"

// /app/oauth/consent?request=…: where an MCP client's authorization request (GET /authorize) lands once the
// person is signed in. It names the assistant and where the answer goes, says what it will be able to do in
// the chosen workspace, and sends the browser back with the API's answer to Allow or Deny.
export const OAuthConsentPage = () => {
  const { request: id } = route.useSearch()
  const session = useSession()
  const pending = useQuery({
    queryKey: ["oauth-request", id],
    queryFn: () => readRequest(id ?? ""),
    enabled: id !== undefined,
    retry: false,
    // A request is answered once; reading it again on focus would only find it gone.
    staleTime: Infinity,
    refetchOnWindowFocus: false
  })
  const footer = <p><Link to="/calendar">Open Herald</Link></p>
  if (id === undefined) {
    return (
      <AuthCard title={title} footer={footer}>
        <Unusable>This address has no authorization request in it. Start connecting again from your assistant.</Unusable>
      </AuthCard>
    )
  }
  if (pending.isPending) return <AuthCard title={title}><Loading what="Reading the assistant's request" /></AuthCard>
  if (pending.isError) {
    return (
      <AuthCard title={title} footer={footer}>
        {pending.error instanceof ApiError && pending.error.status === 404
          ? (
            <Unusable>
              It has expired (a request lasts ten minutes), has already been answered, or the address is
              incomplete. Start connecting again from your assistant.
            </Unusable>
          )
          : (
            <div className="stack">
              <ErrorMessage error={pending.error} title="Could not read the assistant's request" />
              <div>
                <Button onClick={() => void pending.refetch()}>Try again</Button>
              </div>
            </div>
          )}
      </AuthCard>
    )
  }
  return (
    <AuthCard title={title}>
      <ConsentForm request={pending.data} email={session.person.email} preferredWorkspaceId={session.workspace.id} />
    </AuthCard>
  )
}

const Unusable = ({ children }: { readonly children: string }) => (
  <Banner tone="error" title="This request cannot be used">
    <p>{children}</p>
  </Banner>
)
