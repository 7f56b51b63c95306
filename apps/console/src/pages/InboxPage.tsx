import { Coming } from "../components/Page.tsx"

// Being built (issue 18): the route and its navigation entry exist so the page's owner changes this file only.
export const InboxPage = () => <Coming title="Inbox"><p>This page is being built.</p></Coming>
