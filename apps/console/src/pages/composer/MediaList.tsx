import { useMutation } from "@tanstack/react-query"
import { useEffect, useId, useRef, useState, type DragEvent } from "react"
import { messageOf } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { Button } from "../../components/Button.tsx"
import type { About } from "./SchemaField.tsx"
import { uploadFile } from "./upload.ts"
import type { Draft } from "./draft.ts"

// The post's photos and videos: dropped on the zone or picked, each uploaded at once with its progress,
// then listed in the order the networks get them, with alt text and buttons to move each earlier or later.
type Item = Draft["media"][number]

interface Upload {
  readonly key: string
  readonly file: File
  /** Its place among the files picked, so items join the list in the order picked, whichever finishes first. */
  readonly picked: number
  readonly progress: number
  readonly error: string | undefined
}

export const MediaList = ({ items, onChange, about }: {
  readonly items: ReadonlyArray<Item>
  readonly onChange: (update: (items: ReadonlyArray<Item>) => ReadonlyArray<Item>) => void
  readonly about: About
}) => {
  const session = useSession()
  const inputId = useId()
  const [uploads, setUploads] = useState<ReadonlyArray<Upload>>([])
  const [dragging, setDragging] = useState(false)
  const picks = useRef(0)
  const pickedOf = useRef(new Map<string, number>())
  // The item just moved by its buttons, so focus follows it to its new place.
  const [moved, setMoved] = useState<{ readonly id: string; readonly towards: "earlier" | "later" } | undefined>(undefined)
  const change = (key: string, next: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...next } : upload)))
  const send = (upload: Upload) => {
    change(upload.key, { progress: 0, error: undefined })
    uploadFile({
      file: upload.file,
      csrfToken: session.csrfToken,
      // The same key on a retry of the same file: the API answers the first upload again if it did arrive.
      idempotencyKey: upload.key,
      onProgress: (progress) => change(upload.key, { progress })
    }).then(
      (media) => {
        setUploads((current) => current.filter((entry) => entry.key !== upload.key))
        pickedOf.current.set(media.id, upload.picked)
        onChange((current) => {
          const later = current.findIndex((item) => (pickedOf.current.get(item.id) ?? -1) > upload.picked)
          return later === -1 ? [...current, media] : [...current.slice(0, later), media, ...current.slice(later)]
        })
      },
      (error: unknown) => change(upload.key, { error: messageOf(error) })
    )
  }
  const add = (files: Iterable<File>) => {
    const started = [...files].map((file) => ({ key: crypto.randomUUID(), file, picked: picks.current++, progress: 0, error: undefined }))
    setUploads((current) => [...current, ...started])
    started.forEach(send)
  }
  const move = (from: number, to: number) => {
    const item = items[from]
    if (item !== undefined) setMoved({ id: item.id, towards: to < from ? "earlier" : "later" })
    onChange((current) => {
      const next = [...current]
      const [item] = next.splice(from, 1)
      next.splice(to, 0, item!)
      return next
    })
  }
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    add(event.dataTransfer.files)
  }
  const listMessages = about("mediaIds")
  return (
    <section className="composer-section" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>Photos and videos</h2>
      <div
        className={`drop-zone${dragging ? " drop-zone-active" : ""}`}
        onDragOver={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>Drop photos and videos here, or</p>
        <label htmlFor={inputId} className="button button-secondary file-button">Choose files</label>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          aria-label="Add photos or videos"
          onChange={(event) => {
            add(event.currentTarget.files ?? [])
            // The same file may be picked again after a removal.
            event.currentTarget.value = ""
          }}
        />
      </div>
      {listMessages.map((message) => <p key={message} className="field-error">{message}</p>)}
      {uploads.length === 0 ? null : (
        <ul className="upload-list" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.key} className="upload">
              <span className="upload-name">{upload.file.name}</span>
              {upload.error === undefined
                ? (
                  <>
                    <progress max={1} value={upload.progress} aria-label={`Uploading ${upload.file.name}`} />
                    <span className="muted">{Math.round(upload.progress * 100)}%</span>
                  </>
                )
                : (
                  <>
                    <p className="field-error">{upload.error}</p>
                    <Button onClick={() => send(upload)}>Try {upload.file.name} again</Button>
                    <Button variant="quiet" onClick={() => setUploads((current) => current.filter((entry) => entry.key !== upload.key))}>
                      Dismiss
                    </Button>
                  </>
                )}
            </li>
          ))}
        </ul>
      )}
      {items.length === 0 ? null : (
        <ol className="media-list" aria-label="Attached media, in the order they are sent">
          {items.map((item, index) => (
            <MediaItem
              key={item.id}
              item={item}
              name={`${item.kind === "video" ? "Video" : "Photo"} ${index + 1}`}
              first={index === 0}
              last={index === items.length - 1}
              onEarlier={() => move(index, index - 1)}
              onLater={() => move(index, index + 1)}
              onRemove={() => onChange((current) => current.filter((entry) => entry.id !== item.id))}
              onAlt={(alt) => onChange((current) => current.map((entry) => (entry.id === item.id ? { ...entry, alt } : entry)))}
              messages={about(`mediaIds.${index}`)}
              focus={moved?.id === item.id ? moved.towards : undefined}
            />
          ))}
        </ol>
      )}
    </section>
  )
}

const MediaItem = ({ item, name, first, last, onEarlier, onLater, onRemove, onAlt, messages, focus }: {
  readonly item: Item
  readonly name: string
  readonly first: boolean
  readonly last: boolean
  readonly onEarlier: () => void
  readonly onLater: () => void
  readonly onRemove: () => void
  readonly onAlt: (alt: string | null) => void
  readonly messages: ReadonlyArray<string>
  readonly focus: "earlier" | "later" | undefined
}) => {
  const altId = useId()
  const earlier = useRef<HTMLButtonElement>(null)
  const later = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focus === undefined) return
    // At the end of the list the same button is disabled: the other one keeps the keyboard on the item.
    const wanted = focus === "earlier" ? (first ? later : earlier) : last ? earlier : later
    wanted.current?.focus()
  }, [focus, first, last, name])
  const [alt, setAlt] = useState(item.alt ?? "")
  // Alt text belongs to the upload, not the post: saved on the media as soon as the person leaves the box.
  const saveAlt = useMutation({
    mutationFn: (text: string) =>
      unwrap(api.PATCH("/api/v1/media/{id}", { params: { path: { id: item.id } }, body: { alt: text === "" ? null : text } })),
    onSuccess: (media) => onAlt(media.alt)
  })
  const altError = saveAlt.isError ? messageOf(saveAlt.error) : undefined
  return (
    <li className="media-item">
      {item.previewUrl === null
        ? <span className="media-thumb media-thumb-video" aria-hidden="true">▶</span>
        : <img className="media-thumb" src={item.previewUrl} alt="" />}
      <div className="media-body">
        <p className="media-name">{name}</p>
        <div className={`field${altError === undefined ? "" : " field-invalid"}`}>
          <label htmlFor={altId}>Alt text for {name.toLowerCase()}</label>
          <textarea
            id={altId}
            rows={2}
            value={alt}
            aria-invalid={altError === undefined ? undefined : true}
            aria-describedby={`${altId}-state`}
            onChange={(event) => setAlt(event.currentTarget.value)}
            onBlur={() => {
              if (alt !== (item.alt ?? "")) saveAlt.mutate(alt)
            }}
          />
          <p id={`${altId}-state`} className={altError === undefined ? "field-hint" : "field-error"} role="status">
            {altError ?? (saveAlt.isPending ? "Saving…" : saveAlt.isSuccess ? "Alt text saved" : `Describes the ${item.kind === "video" ? "video" : "photo"} for people who cannot see it.`)}
          </p>
        </div>
        {messages.map((message) => <p key={message} className="field-error">{message}</p>)}
        <div className="media-actions">
          <button ref={earlier} type="button" className="button button-quiet" disabled={first} onClick={onEarlier}>
            Move {name.toLowerCase()} earlier
          </button>
          <button ref={later} type="button" className="button button-quiet" disabled={last} onClick={onLater}>
            Move {name.toLowerCase()} later
          </button>
          <Button variant="quiet" onClick={onRemove}>Remove {name.toLowerCase()}</Button>
        </div>
      </div>
    </li>
  )
}
