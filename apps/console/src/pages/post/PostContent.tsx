import type { Post } from "./postQuery.ts"
import { useNetworks } from "./useNetworks.ts"

// What the post says: the text for every network, each network's own text where it has one, the first
// comment, and its photos and videos in order.
export const PostContent = ({ post }: { readonly post: Post }) => {
  const networks = useNetworks()
  const overrides = Object.entries(post.platformContent)
  return (
    <div className="stack">
      <div className="post-text-block">
        <h3>{overrides.length === 0 ? "Text" : "Text for every other network"}</h3>
        {post.content === "" ? <p className="muted">No text</p> : <p className="post-text">{post.content}</p>}
      </div>
      {overrides.map(([network, text]) => (
        <div className="post-text-block" key={network}>
          <h3>Text for {networks.name(network)}</h3>
          <p className="post-text">{text}</p>
        </div>
      ))}
      {post.firstComment === null ? null : (
        <div className="post-text-block">
          <h3>First comment</h3>
          <p className="post-text">{post.firstComment}</p>
        </div>
      )}
      {post.media.length === 0 ? null : (
        <div className="post-text-block">
          <h3>Media</h3>
          <ul className="post-media" aria-label="Attached media">
            {post.media.map((item, index) => (
              <li key={item.id}>
                {item.previewUrl === null
                  ? <a className="post-media-video" href={item.url} target="_blank" rel="noreferrer">Video {index + 1}</a>
                  : (
                    <a href={item.url} target="_blank" rel="noreferrer">
                      <img src={item.previewUrl} alt={item.alt ?? `${item.kind === "image" ? "Photo" : "Video"} ${index + 1} (no alt text)`} />
                    </a>
                  )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
