import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { Table } from "../../components/Table.tsx"
import type { Post } from "./postQuery.ts"
import { TargetStatusBadge } from "./PostStatusBadge.tsx"
import { useNetworks } from "./useNetworks.ts"

// Each account the post goes to: its own status, the link to the post on its network once out, and the
// network's refusal in words when it failed.
export const PostTargets = ({ post }: { readonly post: Post }) => {
  const networks = useNetworks()
  return (
    <Table
      caption="Where it goes"
      captionHidden
      rows={post.targets}
      rowKey={(target) => target.accountId}
      columns={[
        {
          header: "Account",
          cell: (target) => (
            <div className="account-cell">
              <NetworkIcon icon={networks.get(target.platform)?.icon} />
              <div>
                <strong className="account-username">@{target.username}</strong>
                <span className="muted">{networks.name(target.platform)}</span>
              </div>
            </div>
          )
        },
        { header: "Status", cell: (target) => <TargetStatusBadge target={target} postStatus={post.status} /> },
        {
          header: "Link or error",
          cell: (target) =>
            target.url !== null
              ? (
                <a href={target.url} target="_blank" rel="noreferrer">
                  Open on {networks.name(target.platform)}
                  <span className="visually-hidden"> (@{target.username}, opens in a new tab)</span>
                </a>
              )
              : target.error !== null
              ? <p className="target-error">{target.error}</p>
              : <span className="muted">Not out yet</span>
        }
      ]}
    />
  )
}
