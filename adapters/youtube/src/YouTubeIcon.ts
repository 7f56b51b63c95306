import { Icon } from "@herald/adapter-kit"

/** YouTube's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#d01c1c", `<rect x="4.5" y="7" width="15" height="10" rx="3"/><path d="M11 10l3 2-3 2z" fill="#fff"/>`)
