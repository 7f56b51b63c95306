import type { ReactNode } from "react"
import { messageOf } from "../api/ApiError.ts"
import { AlertIcon, CheckIcon, InfoIcon } from "./Icons.tsx"

// A message across the page: "error" is announced at once (role alert), the others politely.
export const Banner = ({ tone = "info", title, children }: {
  readonly tone?: "info" | "success" | "warning" | "error"
  readonly title?: string
  readonly children?: ReactNode
}) => (
  <div className={`banner banner-${tone}`} role={tone === "error" ? "alert" : "status"}>
    {tone === "success" ? <CheckIcon /> : tone === "info" ? <InfoIcon /> : <AlertIcon />}
    <div>
      {title === undefined ? null : <p className="banner-title">{title}</p>}
      {children}
    </div>
  </div>
)

/** An error as the API worded it (`error.message`), or nothing when there is none. */
export const ErrorMessage = ({ error, title }: { readonly error: unknown; readonly title?: string }) =>
  error === null || error === undefined ? null : (
    <Banner tone="error" {...(title === undefined ? {} : { title })}>
      <p>{messageOf(error)}</p>
    </Banner>
  )
