import { Icon } from "@herald/adapter-kit"

/** Threads's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#101010", `<path d="M15.5 9.5a4 4 0 1 0 .5 4.5M15.5 9.5v3a1.8 1.8 0 0 0 3.3 1 6.8 6.8 0 1 0-2.3 3.3"/>`)
