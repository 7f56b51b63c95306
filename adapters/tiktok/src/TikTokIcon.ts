import { Icon } from "@herald/adapter-kit"

/** TikTok's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#010101", `<path d="M13 5.5v9.5a3 3 0 1 1-3-3M13 5.5a4 4 0 0 0 4 4"/>`)
