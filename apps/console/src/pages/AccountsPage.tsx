import { useQuery } from "@tanstack/react-query"
import { useNavigate } from "@tanstack/react-router"
import { useEffect, useState } from "react"
import { Banner } from "../components/Banner.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { AccountList } from "./accounts/AccountList.tsx"
import { accountsQuery, cameBackFromConsent, forgetConsent, networksQuery } from "./accounts/connect.ts"
import { ConnectNetwork } from "./accounts/ConnectNetwork.tsx"

// Accounts: the network accounts the workspace posts as, and a connect control per network the server
// offers. A connection ends back here with `?connected=<accountId>` or `?error=<message>` (the API's
// returnTo), said once in a banner; the address is then cleaned so a reload does not say it again. The
// message is repeated only when this tab went to the consent page: a link from elsewhere gets fixed words.
export const AccountsPage = () => {
  const accounts = useQuery(accountsQuery)
  const networks = useQuery(networksQuery)
  const outcome = useConnectionOutcome()
  const connected = outcome?.connected === undefined
    ? undefined
    : accounts.data?.find((account) => account.id === outcome.connected)
  const networkName = (key: string) => networks.data?.find((network) => network.key === key)?.name ?? key
  return (
    <Page title="Accounts" description="The network accounts this workspace posts as.">
      {outcome?.error === undefined ? null : (
        <Banner tone="error" title="Not connected">
          <p>{outcome.error}</p>
        </Banner>
      )}
      {outcome?.connected === undefined ? null : (
        <Banner tone="success">
          <p>{connected === undefined ? "The account is connected." : `@${connected.username} on ${networkName(connected.platform)} is connected.`}</p>
        </Banner>
      )}
      <section className="stack" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Connected accounts</h2>
        <QueryState
          query={accounts}
          what="accounts"
          empty={
            <>
              <p>No accounts yet.</p>
              <p>Connect one below: Herald posts as the accounts connected here.</p>
            </>
          }
        >
          {(rows) => <AccountList accounts={rows} networks={networks.data ?? []} />}
        </QueryState>
      </section>
      <section className="stack" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect an account</h2>
        <QueryState query={networks} what="networks" empty={<p>This server offers no networks.</p>}>
          {(offered) => (
            <div className="connect-grid">
              {offered.map((network) => <ConnectNetwork key={network.key} network={network} />)}
            </div>
          )}
        </QueryState>
      </section>
    </Page>
  )
}

interface Outcome {
  readonly connected?: string
  readonly error?: string
}

// What the API's callback said, read once from the address, which is then put back to plain /accounts.
const useConnectionOutcome = (): Outcome | undefined => {
  const navigate = useNavigate()
  const [outcome] = useState<Outcome | undefined>(() => {
    const search = new URLSearchParams(window.location.search)
    const connected = search.get("connected")
    const error = search.get("error")
    if (connected === null && error === null) return undefined
    const said = error === null ? {} : { error: cameBackFromConsent() ? error : "The connection could not be completed; start it again" }
    return { ...(connected === null ? {} : { connected }), ...said }
  })
  useEffect(() => {
    if (outcome === undefined) return
    forgetConsent()
    void navigate({ to: "/accounts", replace: true })
  }, [outcome, navigate])
  return outcome
}
