import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router"
import { useEffect, useRef, useState, type ReactNode } from "react"
import { messageOf } from "./api/ApiError.ts"
import { api, setCsrfToken, unwrap } from "./api/client.ts"
import { remember, sessionQuery, useSession } from "./api/session.ts"
import {
  AccountsIcon,
  ApprovalsIcon,
  AssistantIcon,
  CalendarIcon,
  CloseIcon,
  InboxIcon,
  KeyIcon,
  MenuIcon,
  NewPostIcon,
  SignOutIcon,
  TeamIcon,
  UserIcon,
  WebhookIcon,
  WorkspaceIcon
} from "./components/Icons.tsx"

// The signed-in frame: top bar (workspace, person menu), side navigation, the page. On a phone the
// navigation folds behind a menu button.
export const Shell = () => {
  const [navigationOpen, setNavigationOpen] = useState(false)
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  useEffect(() => setNavigationOpen(false), [pathname])
  return (
    <div className="shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <button
          type="button"
          className="button button-quiet menu-button"
          aria-expanded={navigationOpen}
          aria-controls="navigation"
          onClick={() => setNavigationOpen((open) => !open)}
        >
          {navigationOpen ? <CloseIcon /> : <MenuIcon />}
          <span className="visually-hidden">Menu</span>
        </button>
        <Link to="/accounts" className="brand">Herald</Link>
        <WorkspaceSwitcher />
        <PersonMenu />
      </header>
      <nav id="navigation" className={`sidenav${navigationOpen ? " sidenav-open" : ""}`} aria-label="Main">
        <ul>
          <NavItem to="/posts/new" icon={<NewPostIcon />}>New post</NavItem>
          <NavItem to="/calendar" icon={<CalendarIcon />}>Calendar</NavItem>
          <NavItem to="/approvals" icon={<ApprovalsIcon />}>Approvals</NavItem>
          <NavItem to="/inbox" icon={<InboxIcon />}>Inbox</NavItem>
          <NavItem to="/accounts" icon={<AccountsIcon />}>Accounts</NavItem>
        </ul>
        <p className="sidenav-heading" id="settings-heading">Settings</p>
        <ul aria-labelledby="settings-heading">
          <NavItem to="/settings/api-keys" icon={<KeyIcon />}>API keys</NavItem>
          <NavItem to="/settings/webhooks" icon={<WebhookIcon />}>Webhooks</NavItem>
          <NavItem to="/settings/assistants" icon={<AssistantIcon />}>Connected assistants</NavItem>
          <NavItem to="/settings/team" icon={<TeamIcon />}>Team</NavItem>
          <NavItem to="/settings/workspace" icon={<WorkspaceIcon />}>Workspace</NavItem>
        </ul>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}

const NavItem = ({ to, icon, children }: {
  readonly to:
    | "/posts/new"
    | "/calendar"
    | "/approvals"
    | "/inbox"
    | "/accounts"
    | "/settings/api-keys"
    | "/settings/webhooks"
    | "/settings/assistants"
    | "/settings/team"
    | "/settings/workspace"
  readonly icon: ReactNode
  readonly children: string
}) => (
  <li>
    <Link to={to} className="sidenav-link" activeProps={{ "aria-current": "page", className: "sidenav-link active" }}>
      {icon}
      <span>{children}</span>
    </Link>
  </li>
)

/** The current workspace; a choice of them when the person belongs to several. */
const WorkspaceSwitcher = () => {
  const session = useSession()
  const queryClient = useQueryClient()
  const switchTo = useMutation({
    mutationFn: async (workspaceId: string) => remember(await unwrap(api.PUT("/api/v1/auth/workspace", { body: { workspaceId } }))),
    onSuccess: (next) => {
      // Everything else cached belongs to the workspace just left.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "session" })
      queryClient.setQueryData(sessionQuery.queryKey, next)
    }
  })
  if (session.workspaces.length < 2) return <span className="workspace-name">{session.workspace.name}</span>
  return (
    <div className="workspace-switcher">
      <label htmlFor="workspace-switcher" className="visually-hidden">Workspace</label>
      <select
        id="workspace-switcher"
        value={session.workspace.id}
        disabled={switchTo.isPending}
        onChange={(event) => switchTo.mutate(event.currentTarget.value)}
      >
        {session.workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>{workspace.name}</option>
        ))}
      </select>
      {switchTo.isError ? <p className="field-error" role="alert">{messageOf(switchTo.error)}</p> : null}
    </div>
  )
}

/** The person's name, opening Profile and Sign out. */
const PersonMenu = () => {
  const session = useSession()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const around = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const outside = (event: Event) => {
      if (around.current !== null && !around.current.contains(event.target as Node)) setOpen(false)
    }
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false)
    }
    document.addEventListener("pointerdown", outside)
    document.addEventListener("focusin", outside)
    document.addEventListener("keydown", escape)
    return () => {
      document.removeEventListener("pointerdown", outside)
      document.removeEventListener("focusin", outside)
      document.removeEventListener("keydown", escape)
    }
  }, [open])
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/sign-out")),
    onSuccess: () => {
      setCsrfToken(undefined)
      queryClient.clear()
      void navigate({ to: "/sign-in" })
    }
  })
  return (
    <div className="person-menu" ref={around}>
      <button
        type="button"
        className="button button-quiet"
        aria-expanded={open}
        aria-controls="person-menu"
        onClick={() => setOpen((value) => !value)}
      >
        <UserIcon />
        <span className="person-name">{session.person.name ?? session.person.email}</span>
        <span className="visually-hidden">, account menu</span>
      </button>
      <div id="person-menu" className="person-menu-list" hidden={!open}>
        <p className="person-email">{session.person.email}</p>
        <Link to="/settings/profile" className="person-menu-item" onClick={() => setOpen(false)}>
          <UserIcon />
          Profile
        </Link>
        <button type="button" className="person-menu-item" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          <SignOutIcon />
          Sign out
        </button>
        {signOut.isError ? <p className="field-error" role="alert">{messageOf(signOut.error)}</p> : null}
      </div>
    </div>
  )
}
