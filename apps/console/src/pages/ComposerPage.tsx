import { useQuery } from "@tanstack/react-query"
import { useParams } from "@tanstack/react-router"
import { api, unwrap } from "../api/client.ts"
import { Page, QueryState } from "../components/Page.tsx"
import { accountsQuery, networksQuery } from "./accounts/connect.ts"
import { Composer } from "./composer/Composer.tsx"
import { draftOf } from "./composer/draft.ts"
import "./composer/composer.css"
import { workspaceKey } from "./WorkspacePage.tsx"

// New post (/posts/new) and editing one (/posts/$id/edit): one composer, the route's id telling which.
export const ComposerPage = () => {
  const { id } = useParams({ strict: false })
  const accounts = useQuery(accountsQuery)
  const networks = useQuery(networksQuery)
  const workspace = useQuery({ queryKey: workspaceKey, queryFn: () => unwrap(api.GET("/api/v1/workspace")) })
  const post = useQuery({
    queryKey: ["posts", id],
    queryFn: () => unwrap(api.GET("/api/v1/posts/{id}", { params: { path: { id: id! } } })),
    enabled: id !== undefined
  })
  return (
    <Page
      title={id === undefined ? "New post" : "Edit post"}
      description="Write once, adjust per network; each network's counts and problems show as you type."
    >
      <QueryState query={accounts} what="accounts" empty={<p>Connect an account first, under Accounts.</p>}>
        {(accountList) => (
          <QueryState query={networks} what="networks">
            {(networkList) => (
              <QueryState query={workspace} what="the workspace">
                {(workspaceData) =>
                  id === undefined
                    ? <Composer accounts={accountList} networks={networkList} timeZone={workspaceData.timeZone} />
                    : (
                      <QueryState query={post} what="the post">
                        {(saved) => (
                          <Composer
                            key={saved.id}
                            accounts={accountList}
                            networks={networkList}
                            timeZone={workspaceData.timeZone}
                            saved={saved}
                            initial={draftOf(saved, networkList)}
                          />
                        )}
                      </QueryState>
                    )}
              </QueryState>
            )}
          </QueryState>
        )}
      </QueryState>
    </Page>
  )
}
