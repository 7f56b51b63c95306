/**
 * The MCP prompts: tasks a person starts from their assistant's menu, each a message that tells the
 * assistant which tools to use in which order. A prompt is listed only when every tool it names is
 * installed, so it never sends the assistant to a tool that is not there.
 */

export interface Argument {
  readonly name: string
  readonly description: string
  readonly required: boolean
}

export interface Prompt {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly arguments: ReadonlyArray<Argument>
  /** The tools the prompt's text sends the assistant to. */
  readonly tools: ReadonlyArray<string>
  /** The message to the assistant, given the arguments (MCP's arguments are strings; the required ones present). */
  text(args: Readonly<Record<string, string | undefined>>): string
}

const given = (value: string | undefined) => value !== undefined && value.trim() !== "" ? value.trim() : undefined

const planWeek: Prompt = {
  name: "plan_week",
  title: "Plan a week of posts",
  description: "Plans a week of posts on a topic for the workspace's accounts: checks each against the networks' " +
    "limits, then schedules them in the queue's slots or at chosen times, once the person agrees.",
  arguments: [
    { name: "topic", description: "What the week's posts are about", required: true },
    {
      name: "accounts",
      description: "The accounts to post to, by username or id, separated by commas; all connected accounts when empty",
      required: false
    }
  ],
  tools: ["list_accounts", "get_queue", "validate_post", "create_post"],
  text: (args) => {
    const accounts = given(args["accounts"])
    return [
      `Plan a week of social posts about: ${given(args["topic"])}.`,
      "",
      "Work through Herald's tools in this order:",
      "1. Call list_accounts. " + (accounts === undefined
        ? "Post to every account whose status is connected."
        : `Post to these accounts, matched by username or id: ${accounts}. Say which of them you cannot find or are not connected.`),
      "2. Read each network's limits in create_post's description (or the herald://networks resource): text length " +
      "and how it is counted, media, threads. Write each post for the networks it goes to; platformContent gives a " +
      "network its own text.",
      "3. Call get_queue for the coming week's slots (the herald://queue/schedule resource gives the weekly " +
      "schedule and the workspace's time zone). Free slots (post: null) are where queued: true puts a post. With " +
      "no slots, pick times yourself and send them as scheduledAt (ISO 8601 with a zone, in the workspace's time zone).",
      "4. Call validate_post with each post's arguments and fix every problem it reports before going on.",
      "5. Show the person the week: each post's text, accounts and time. Change what they ask.",
      "6. Only once they agree, call create_post for each post, with queued: true to take the next free slot or " +
      "scheduledAt for a chosen time (draft: true if they want to review them in Herald first). Give each post " +
      "its own idempotencyKey, so a retried call does not create it twice.",
      "7. Finish with the list of posts created: id, time and accounts."
    ].join("\n")
  }
}

const answerInbox: Prompt = {
  name: "answer_inbox",
  title: "Answer my inbox",
  description: "Goes through the unread comments and messages of the workspace's accounts and drafts an answer " +
    "to each for the person to approve before it is sent.",
  arguments: [
    { name: "tone", description: "How the answers should sound (friendly, formal, brief...); the account's own voice when empty", required: false }
  ],
  tools: ["list_inbox", "reply_to_comment", "send_message"],
  text: (args) => {
    const tone = given(args["tone"])
    return [
      "Help me answer my social inbox.",
      "",
      "1. Call list_inbox for the unread comments and direct messages.",
      "2. For each, draft a short answer" + (tone === undefined ? " in the account's own voice." : ` in this tone: ${tone}.`) +
      " Skip spam and what needs no answer, and say why.",
      "3. Show me each comment or message with its draft; change what I ask.",
      "4. Only once I agree, send each answer: reply_to_comment for a comment, send_message for a direct message, " +
      "each with its own idempotencyKey so a retried call does not answer twice.",
      "5. Finish with what was sent and what was left."
    ].join("\n")
  }
}

const all: ReadonlyArray<Prompt> = [planWeek, answerInbox]

/** The prompts whose tools are all among the installed ones. */
export const make = (tools: ReadonlyArray<{ readonly name: string }>): ReadonlyArray<Prompt> => {
  const names = new Set(tools.map((tool) => tool.name))
  return all.filter((prompt) => prompt.tools.every((tool) => names.has(tool)))
}
