import { Icon } from "@herald/adapter-kit"

/** Facebook's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#1877f2", `<path d="M14.5 6.5h-1.5a2.5 2.5 0 0 0-2.5 2.5v10M8.5 12h5.5"/>`)
