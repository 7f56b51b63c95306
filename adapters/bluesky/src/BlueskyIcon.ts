import { Icon } from "@herald/adapter-kit"

/** Bluesky's mark, simplified, on its colour: clients show it beside the network's name. */
export const svg = Icon.badge("#1185fe", `<path d="M12 11.5c-1.5-3-4.5-5-6-5 0 4 1 7 6 7.5M12 11.5c1.5-3 4.5-5 6-5 0 4-1 7-6 7.5M12 13.5c-2 1-3 2.5-2 4 1 1 2-1 2-2.5 0 1.5 1 3.5 2 2.5 1-1.5 0-3-2-4"/>`)
