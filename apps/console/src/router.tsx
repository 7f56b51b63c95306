import type { QueryClient } from "@tanstack/react-query"
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from "@tanstack/react-router"
import { ApiError } from "./api/ApiError.ts"
import { sessionQuery } from "./api/session.ts"
import { Coming } from "./components/Page.tsx"
import { Shell } from "./Shell.tsx"
import { AccountsPage } from "./pages/AccountsPage.tsx"
import { ApiKeysPage } from "./pages/ApiKeysPage.tsx"
import { ApprovalsPage } from "./pages/ApprovalsPage.tsx"
import { AssistantsPage } from "./pages/AssistantsPage.tsx"
import { CalendarPage } from "./pages/CalendarPage.tsx"
import { ComposerPage } from "./pages/ComposerPage.tsx"
import { InboxPage } from "./pages/InboxPage.tsx"
import { InvitationPage } from "./pages/InvitationPage.tsx"
import { LinkPage } from "./pages/LinkPage.tsx"
import { OAuthConsentPage } from "./pages/OAuthConsentPage.tsx"
import { PostPage } from "./pages/PostPage.tsx"
import { ProfilePage } from "./pages/ProfilePage.tsx"
import { ResetPage } from "./pages/ResetPage.tsx"
import { SetPasswordPage } from "./pages/SetPasswordPage.tsx"
import { SignInPage } from "./pages/SignInPage.tsx"
import { TeamPage } from "./pages/TeamPage.tsx"
import { WebhookPage } from "./pages/WebhookPage.tsx"
import { WebhooksPage } from "./pages/WebhooksPage.tsx"
import { WorkspacePage } from "./pages/WorkspacePage.tsx"

// The console's routes, in code (no generator). Paths are below the router's basepath /app. A new page: a
// component in pages/, one createRoute here under `shell` (signed-in pages) or `root` (the sign-in pages),
// and its entry in routeTree below; a link in Shell.tsx's navigation when it has one.
export interface RouterContext {
  readonly queryClient: QueryClient
}

/** Where to come back to after signing in: a path inside the console, nothing else (no open redirect). */
export const safeRedirect = (value: unknown): string | undefined =>
  typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : undefined

const root = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: () => <Coming title="Page not found"><p>There is no page at this address.</p></Coming>
})

// The session, or off to sign-in with the way back.
const requireSession = async (context: RouterContext, href: string) => {
  try {
    return await context.queryClient.ensureQueryData(sessionQuery)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect({ to: "/sign-in", search: { redirect: href } })
    throw error
  }
}

const signIn = createRoute({
  getParentRoute: () => root,
  path: "sign-in",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const back = safeRedirect(search["redirect"])
    return back === undefined ? {} : { redirect: back }
  },
  component: SignInPage
})
const link = createRoute({ getParentRoute: () => root, path: "link", component: LinkPage })
const reset = createRoute({ getParentRoute: () => root, path: "reset", component: ResetPage })
const invitation = createRoute({ getParentRoute: () => root, path: "invitation", component: InvitationPage })
const setPassword = createRoute({
  getParentRoute: () => root,
  path: "set-password",
  beforeLoad: ({ context, location }) => requireSession(context, location.href),
  component: SetPasswordPage
})
// An assistant's authorization request (GET /authorize sends the browser here): signed in, outside the frame,
// as a decision with nothing else around it.
const oauthConsent = createRoute({
  getParentRoute: () => root,
  path: "oauth/consent",
  validateSearch: (search: Record<string, unknown>): { request?: string } =>
    typeof search["request"] === "string" && search["request"] !== "" ? { request: search["request"] } : {},
  beforeLoad: ({ context, location }) => requireSession(context, location.href),
  component: OAuthConsentPage
})

const shell = createRoute({
  getParentRoute: () => root,
  id: "shell",
  beforeLoad: async ({ context, location }) => {
    const session = await requireSession(context, location.href)
    if (session.mustSetPassword) throw redirect({ to: "/set-password" })
  },
  component: Shell
})

const home = createRoute({
  getParentRoute: () => shell,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/calendar" })
  }
})
const accounts = createRoute({ getParentRoute: () => shell, path: "accounts", component: AccountsPage })
const calendar = createRoute({ getParentRoute: () => shell, path: "calendar", component: CalendarPage })
export const newPost = createRoute({ getParentRoute: () => shell, path: "posts/new", component: ComposerPage })
export const post = createRoute({ getParentRoute: () => shell, path: "posts/$id", component: PostPage })
export const editPost = createRoute({ getParentRoute: () => shell, path: "posts/$id/edit", component: ComposerPage })
const approvals = createRoute({ getParentRoute: () => shell, path: "approvals", component: ApprovalsPage })
const inbox = createRoute({ getParentRoute: () => shell, path: "inbox", component: InboxPage })
const apiKeys = createRoute({ getParentRoute: () => shell, path: "settings/api-keys", component: ApiKeysPage })
const webhooks = createRoute({ getParentRoute: () => shell, path: "settings/webhooks", component: WebhooksPage })
export const webhook = createRoute({ getParentRoute: () => shell, path: "settings/webhooks/$id", component: WebhookPage })
const team = createRoute({ getParentRoute: () => shell, path: "settings/team", component: TeamPage })
const workspace = createRoute({ getParentRoute: () => shell, path: "settings/workspace", component: WorkspacePage })
const profile = createRoute({ getParentRoute: () => shell, path: "settings/profile", component: ProfilePage })
const assistants = createRoute({ getParentRoute: () => shell, path: "settings/assistants", component: AssistantsPage })

const routeTree = root.addChildren([
  signIn,
  link,
  reset,
  invitation,
  setPassword,
  oauthConsent,
  shell.addChildren([
    home,
    accounts,
    calendar,
    newPost,
    post,
    editPost,
    approvals,
    inbox,
    apiKeys,
    webhooks,
    webhook,
    team,
    workspace,
    profile,
    assistants
  ])
])

export const makeRouter = (queryClient: QueryClient) =>
  createRouter({
    routeTree,
    basepath: "/app",
    context: { queryClient },
    defaultPreload: "intent",
    scrollRestoration: true
  })

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof makeRouter>
  }
}
