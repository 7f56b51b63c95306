// A moment as the person's browser writes dates and times: "24 Nov 2026, 16:10".
const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })

export const when = (iso: string | null | undefined): string => (iso === null || iso === undefined ? "—" : format.format(new Date(iso)))
