import { Icon } from "@herald/adapter-kit"

/** Mastodon's mark, simplified (an "m" in a speech bubble), on its colour: clients show it beside the network's name. */
export const svg = Icon.badge(
  "#6364ff",
  `<path d="M6 17.5V9a3 3 0 0 1 3-3h6a3 3 0 0 1 3 3v4a3 3 0 0 1-3 3H9.5"/><path d="M9 13v-3m3 3v-3m3 3v-3"/>`
)
