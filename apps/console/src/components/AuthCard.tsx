import { useEffect, type ReactNode } from "react"

// The frame of the pages before the console proper: sign-in, links, reset, invitation, set password.
export const AuthCard = ({ title, children, footer }: {
  readonly title: string
  readonly children: ReactNode
  readonly footer?: ReactNode
}) => {
  useEffect(() => {
    document.title = `${title} · Herald`
  }, [title])
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand">Herald</p>
        <h1>{title}</h1>
        {children}
        {footer === undefined ? null : <div className="auth-footer">{footer}</div>}
      </div>
    </main>
  )
}
