// Webhook events in words for the pages: grouped by kind for the picker, an endpoint's selection in short.
// Which events there are is the API's (GET /api/v1/webhooks/events, decision 0085), never a list kept here.
const groupNames: Readonly<Record<string, string>> = {
  post: "Posts",
  account: "Accounts",
  member: "Team",
  comment: "Comments",
  message: "Messages",
  webhook: "Webhooks"
}

export interface EventGroup {
  readonly kind: string
  readonly name: string
  readonly events: ReadonlyArray<string>
}

/** The events grouped by kind (the part before the dot), in the API's order; a kind without a name here keeps its own. */
export const groupEvents = (events: ReadonlyArray<string>): ReadonlyArray<EventGroup> => events.reduce<Array<EventGroup>>((groups, event) => {
  const kind = event.slice(0, event.indexOf("."))
  const group = groups.find((known) => known.kind === kind)
  if (group === undefined) groups.push({ kind, name: groupNames[kind] ?? kind, events: [event] })
  else (group.events as Array<string>).push(event)
  return groups
}, [])

/** An endpoint's selection in a few words: "All events", or the names (shortened past three). */
export const describeEvents = (events: ReadonlyArray<string>): string =>
  events.length === 0
    ? "All events"
    : events.length <= 3
    ? events.join(", ")
    : `${events.slice(0, 2).join(", ")} and ${events.length - 2} more`
