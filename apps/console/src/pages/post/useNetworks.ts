import { useQuery } from "@tanstack/react-query"
import { type Network, networksQuery } from "../accounts/connect.ts"

/** The server's networks by key (name, icon, options), for showing a post's targets; empty while loading. */
export const useNetworks = () => {
  const networks = useQuery(networksQuery)
  const list: ReadonlyArray<Network> = networks.data ?? []
  const byKey = new Map(list.map((network) => [network.key, network]))
  return {
    list,
    get: (key: string): Network | undefined => byKey.get(key),
    name: (key: string): string => byKey.get(key)?.name ?? key
  }
}
