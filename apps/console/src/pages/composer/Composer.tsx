import { useId, useMemo, useState } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { AccountPicker } from "./AccountPicker.tsx"
import { type Account, bodyOf, changesOf, chosenNetworks, type Draft, emptyDraft, type Network, optionsOf, type Post } from "./draft.ts"
import { MediaList } from "./MediaList.tsx"
import { Previews } from "./Previews.tsx"
import { type Action, timingOf, useSave } from "./saving.ts"
import type { About } from "./SchemaField.tsx"
import { TextTabs } from "./TextTabs.tsx"
import { useValidation } from "./useValidation.ts"
import { instantOfLocalInput, localInputOf } from "../../components/zone.ts"

const actions: ReadonlyArray<readonly [Action, string]> = [
  ["draft", "Save draft"],
  ["schedule", "Schedule"],
  ["queue", "Add to queue"],
  ["publish", "Publish now"]
]

// The composer's form, for a new post (`saved` undefined) or a saved one. Every count, problem and preview
// comes from POST /api/v1/posts/validate with the body a save would send; a save sends it for real.
export const Composer = ({ accounts, networks, timeZone, saved, initial }: {
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyArray<Network>
  readonly timeZone: string
  readonly saved?: Post | undefined
  readonly initial?: Draft | undefined
}) => {
  const timeId = useId()
  const [draft, setDraft] = useState<Draft>(initial ?? emptyDraft)
  const [time, setTime] = useState(saved?.scheduledAt == null ? "" : localInputOf(timeZone, new Date(saved.scheduledAt)))
  const [timeMissing, setTimeMissing] = useState(false)
  const [action, setAction] = useState<Action | undefined>(undefined)
  const chosen = chosenNetworks(draft, accounts, networks)
  const body = bodyOf(draft, chosen)
  const scheduledAt = instantOfLocalInput(timeZone, time)?.toISOString()
  const validation = useValidation(
    { ...body, ...(scheduledAt === undefined ? { draft: true } : { scheduledAt }) },
    draft.accountIds.length > 0
  )
  const save = useSave(saved)
  const before = useMemo(
    () => (saved === undefined || initial === undefined ? undefined : bodyOf(initial, chosenNetworks(initial, accounts, networks))),
    [saved, initial, accounts, networks]
  )
  const checks = draft.accountIds.length === 0 ? [] : validation.data?.networks ?? []
  const problems = [
    ...(draft.accountIds.length === 0 ? [] : validation.data?.problems ?? []),
    // A body the API cannot read as a post (a wrong type in an option) is refused whole, naming the field.
    ...(validation.error instanceof ApiError ? validation.error.details : []),
    ...(save.error instanceof ApiError ? save.error.details : [])
  ]
  const about: About = (field) => [...new Set(problems.filter((problem) => problem.field === field).map((problem) => problem.message))]
  // Problems about a field no control shows (a new rule, an option the form cannot draw) are listed above the actions.
  const shown = (field: string) =>
    ["content", "firstComment", "accountIds", "mediaIds", "scheduledAt", "queued"].some((name) => field === name || field.startsWith(`${name}.`)) ||
    chosen.some((network) => {
      const options = optionsOf(network)
      if (field === `platformContent.${network.key}`) return true
      if (options === null) return false
      if (options.placement === "platformOptions") return field.startsWith(`platformOptions.${network.key}.`)
      return Object.keys(options.schema.properties ?? {}).some((name) => field === name || field.startsWith(`${name}.`))
    })
  const elsewhere = [...new Set(problems.filter((problem) => !shown(problem.field)).map((problem) => problem.message))]
  const timeMessages = [...(timeMissing ? ["Choose a date and time to schedule the post."] : []), ...about("scheduledAt"), ...about("queued")]
  const update = (change: (draft: Draft) => Draft) => {
    setDraft(change)
    if (save.isError) save.reset()
  }
  const run = (action: Action) => {
    if (action === "schedule" && scheduledAt === undefined) return setTimeMissing(true)
    setTimeMissing(false)
    setAction(action)
    const timeUnchanged = saved?.scheduledAt != null && time === localInputOf(timeZone, new Date(saved.scheduledAt))
    const timing = timingOf(action, scheduledAt, saved, timeUnchanged)
    save.mutate(before === undefined ? { ...body, ...timing } : { ...changesOf(before, body), ...timing })
  }
  return (
    <form className="composer stack" noValidate onSubmit={(event) => event.preventDefault()}>
      <AccountPicker
        accounts={accounts}
        networks={networks}
        chosen={draft.accountIds}
        onChange={(accountIds) => update((old) => ({ ...old, accountIds }))}
        about={about}
      />
      <TextTabs
        draft={draft}
        setDraft={update}
        networks={chosen}
        checks={checks}
        about={about}
        problemFields={problems.map((problem) => problem.field)}
      />
      <MediaList items={draft.media} onChange={(change) => update((old) => ({ ...old, media: change(old.media) }))} about={about} />
      <Previews checks={checks} networks={networks} media={draft.media} />
      <section className="composer-section stack" aria-labelledby={`${timeId}-heading`}>
        <h2 id={`${timeId}-heading`}>When</h2>
        {validation.isError ? <ErrorMessage error={validation.error} title="Could not check the post" /> : null}
        {elsewhere.length === 0 ? null : (
          <div className="banner banner-warning" role="status">
            <div>
              <p className="banner-title">This post cannot go out as it is</p>
              {elsewhere.map((message) => <p key={message}>{message}</p>)}
            </div>
          </div>
        )}
        <ErrorMessage error={save.error} title="Not saved" />
        <div className={`field${timeMessages.length === 0 ? "" : " field-invalid"}`}>
          <label htmlFor={timeId}>Date and time ({timeZone.replace(/_/g, " ")})</label>
          <input
            id={timeId}
            type="datetime-local"
            value={time}
            aria-invalid={timeMessages.length === 0 ? undefined : true}
            aria-describedby={`${timeId}-hint${timeMessages.length === 0 ? "" : ` ${timeId}-error`}`}
            onChange={(event) => {
              setTime(event.currentTarget.value)
              setTimeMissing(false)
            }}
          />
          <p className="field-hint" id={`${timeId}-hint`}>In the workspace's time zone, for Schedule.</p>
          {timeMessages.length === 0 ? null : (
            <div className="field-error" id={`${timeId}-error`}>{timeMessages.map((message) => <p key={message}>{message}</p>)}</div>
          )}
        </div>
        <div className="form-actions">
          {actions.map(([each, label]) => (
            <Button
              key={each}
              variant={each === "schedule" ? "primary" : "secondary"}
              busy={save.isPending && action === each}
              disabled={save.isPending && action !== each}
              onClick={() => run(each)}
            >
              {label}
            </Button>
          ))}
        </div>
      </section>
    </form>
  )
}
