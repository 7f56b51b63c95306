import type { ButtonHTMLAttributes, ReactNode } from "react"

// One button for the whole console. `variant`: "primary" for the page's main action, "danger" for what
// cannot be undone, "quiet" for the rest. `busy` disables it and says so while a call is under way.
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly variant?: "primary" | "secondary" | "danger" | "quiet"
  readonly busy?: boolean
  readonly children: ReactNode
}

export const Button = ({ variant = "secondary", busy = false, type = "button", disabled, children, className, ...rest }: ButtonProps) => (
  <button
    {...rest}
    type={type}
    className={`button button-${variant}${className === undefined ? "" : ` ${className}`}`}
    disabled={disabled === true || busy}
    aria-busy={busy || undefined}
  >
    {children}
  </button>
)
