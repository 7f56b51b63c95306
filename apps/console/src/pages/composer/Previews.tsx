import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import type { Draft, Network } from "./draft.ts"
import type { Validation } from "./useValidation.ts"

// Each network's post as its adapter would be sent it (the validate answer's `version`): its text, where
// it is over the network's most, the thread it splits into, its form (a story...), title, media and first
// comment. Built from the server's version, so the preview cannot differ from what is published.
export const Previews = ({ checks, networks, media }: {
  readonly checks: Validation["networks"]
  readonly networks: ReadonlyArray<Network>
  readonly media: Draft["media"]
}) =>
  checks.length === 0 ? null : (
    <section className="composer-section" aria-labelledby="previews-heading">
      <h2 id="previews-heading">Preview</h2>
      <div className="previews">
        {checks.map((check) => {
          const network = networks.find((entry) => entry.key === check.network)
          const name = network?.name ?? check.network
          const over = check.text.used - check.text.max
          const { version } = check
          const parts = [version.text, ...version.thread]
          return (
            <article key={check.network} className="preview card" aria-label={`${name} preview`}>
              <header className="preview-header">
                <NetworkIcon icon={network?.icon} />
                <h3>{name}</h3>
                {version.format === "post" ? null : <span className="badge">{version.format}</span>}
              </header>
              {version.title === null ? null : <p className="preview-title">{version.title}</p>}
              <ol className="preview-parts">
                {parts.map((part, index) => (
                  <li key={index} className="preview-part">
                    {parts.length > 1 ? <span className="muted preview-number">{index + 1}/{parts.length}</span> : null}
                    <p className={`preview-text${index === 0 && over > 0 ? " preview-over" : ""}`}>
                      {part === "" ? <span className="muted">(no text)</span> : part}
                    </p>
                    {index === 0 && over > 0
                      ? <p className="field-error">{name} stops at {check.text.max}: {over} over, as {name} counts.</p>
                      : null}
                  </li>
                ))}
              </ol>
              {version.media.length === 0 ? null : (
                <ul className="preview-media" aria-label={`${name} media`}>
                  {version.media.map((id, index) => {
                    const item = media.find((entry) => entry.id === id)
                    return (
                      <li key={id}>
                        {item?.previewUrl == null
                          ? <span className="media-thumb media-thumb-video">Video {index + 1}</span>
                          : <img className="media-thumb" src={item.previewUrl} alt={item.alt ?? `Photo ${index + 1}`} />}
                      </li>
                    )
                  })}
                </ul>
              )}
              {version.firstComment === null ? null : (
                <p className="preview-comment"><span className="muted">First comment:</span> {version.firstComment}</p>
              )}
            </article>
          )
        })}
      </div>
    </section>
  )
