// Where an answer stands when it is not simply on the network: still sending, unknown (check the network
// before writing it again) or refused, with the reason the API gave.
const words = { sending: "Sending", unknown: "Outcome unknown", failed: "Not sent" } as const

export const ItemStatus = ({ status, failure }: { readonly status: string; readonly failure: string | null }) => {
  if (status !== "sending" && status !== "unknown" && status !== "failed") return null
  return (
    <p className={status === "failed" ? "inbox-failure" : "muted"}>
      <span className={`badge ${status === "failed" ? "badge-error" : "badge-muted"}`}>{words[status]}</span>
      {failure === null ? null : ` ${failure}`}
    </p>
  )
}
