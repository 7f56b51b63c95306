import type { UseQueryResult } from "@tanstack/react-query"
import { useEffect, type ReactNode } from "react"
import { ErrorMessage } from "./Banner.tsx"
import { Button } from "./Button.tsx"

// Every page: one h1 (also the document title), an optional description and actions beside the heading.
export const Page = ({ title, description, actions, children }: {
  readonly title: string
  readonly description?: ReactNode
  readonly actions?: ReactNode
  readonly children: ReactNode
}) => {
  useEffect(() => {
    document.title = `${title} · Herald`
  }, [title])
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <div>
          <h1 id="page-title">{title}</h1>
          {description === undefined ? null : <p className="page-description">{description}</p>}
        </div>
        {actions === undefined ? null : <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

export const Loading = ({ what = "Loading" }: { readonly what?: string }) => (
  <p className="loading" role="status">
    <span className="spinner" aria-hidden="true" />
    {what}…
  </p>
)

export const Empty = ({ children }: { readonly children: ReactNode }) => <div className="empty">{children}</div>

/**
 * A query's three states, so no page forgets one: a spinner while loading, the API's message with "Try
 * again" on error, `empty` when `isEmpty(data)`, else `children(data)`.
 */
export const QueryState = <Data,>({ query, what, empty, isEmpty, children }: {
  readonly query: UseQueryResult<Data>
  readonly what?: string
  readonly empty?: ReactNode
  readonly isEmpty?: (data: Data) => boolean
  readonly children: (data: Data) => ReactNode
}) => {
  if (query.isPending) return <Loading {...(what === undefined ? {} : { what: `Loading ${what}` })} />
  if (query.isError) {
    return (
      <div className="stack">
        <ErrorMessage error={query.error} title={what === undefined ? "Could not load this page" : `Could not load ${what}`} />
        <div>
          <Button onClick={() => void query.refetch()}>Try again</Button>
        </div>
      </div>
    )
  }
  const data = query.data
  if (empty !== undefined && (isEmpty?.(data) ?? (Array.isArray(data) && data.length === 0))) return <Empty>{empty}</Empty>
  return <>{children(data)}</>
}

/** A page someone is still building. */
export const Coming = ({ title, children }: { readonly title: string; readonly children?: ReactNode }) => (
  <Page title={title}>
    <Empty>{children ?? <p>This page is coming.</p>}</Empty>
  </Page>
)
