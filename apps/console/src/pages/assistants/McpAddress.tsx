import { CopyButton } from "../../components/CopyButton.tsx"

// The address an assistant is given to connect: Herald's MCP server on this very origin. An OAuth-capable
// assistant needs nothing else; it then asks the person on the consent page.
export const McpAddress = () => {
  const address = `${window.location.origin}/api/mcp`
  return (
    <div className="mcp-address">
      <p>
        To connect one, give your assistant this MCP server address; it will ask you here to allow it.
      </p>
      <div className="mcp-address-value">
        <code>{address}</code>
        <CopyButton value={address} label="Copy address" />
      </div>
    </div>
  )
}
