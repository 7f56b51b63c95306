import { Icon } from "@herald/adapter-kit"

/** LinkedIn's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#0a66c2", `<path d="M7.5 10.5v6.5M7.5 7.2v.01M11 17v-6.5M11 13.5a2.5 2.5 0 0 1 5 0V17"/>`)
