import { Coming } from "../components/Page.tsx"

// Being built (issue 18): the route and its navigation entry exist so the page's owner changes this file only.
export const PostPage = () => <Coming title="Post"><p>This page is being built.</p></Coming>
