import { Icon } from "@herald/adapter-kit"

/** Instagram's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#c13584", `<rect x="5.5" y="5.5" width="13" height="13" rx="4"/><circle cx="12" cy="12" r="3"/><path d="M15.8 8.2h.01"/>`)
