import { Coming } from "../components/Page.tsx"

// Replaced by the page itself (issue 15).
export const ApiKeysPage = () => <Coming title="API keys" />
