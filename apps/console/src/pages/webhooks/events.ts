// The events an endpoint can ask for. The API takes them as plain strings (its OpenAPI document has no
// enum), so the list lives here once; test/WebhookEvents.test.ts compares it with the service's own list
// (@herald/domain's Webhook.EventKinds), so a new event cannot be missing from the picker.
export const eventKinds = [
  "post.created",
  "post.scheduled",
  "post.updated",
  "post.rescheduled",
  "post.deleted",
  "post.retried",
  "post.published",
  "post.partial",
  "post.failed",
  "post.submitted",
  "post.approved",
  "post.changes_requested",
  "account.connected",
  "account.disconnected",
  "account.needs_reconnect",
  "member.joined",
  "comment.received",
  "message.received",
  "message.sent",
  "webhook.test"
] as const

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

/** The events grouped by kind (the part before the dot), in the order above. */
export const eventGroups: ReadonlyArray<EventGroup> = eventKinds.reduce<Array<EventGroup>>((groups, event) => {
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
