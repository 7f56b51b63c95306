import { Icon } from "@herald/adapter-kit"

/** X's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#000000", `<path d="M7 6.5l10 11M17 6.5l-10 11"/>`)
