import type { Account, Network } from "../accounts/connect.ts"

// How the inbox names what the API gives as ids: an account as "@name on Network", a network by its name.
export interface Directory {
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyArray<Network>
}

export const networkOf = (directory: Directory, key: string) => directory.networks.find((network) => network.key === key)

export const networkName = (directory: Directory, key: string) => networkOf(directory, key)?.name ?? key

export const accountName = (directory: Directory, accountId: string) => {
  const account = directory.accounts.find((candidate) => candidate.id === accountId)
  return account === undefined ? "a removed account" : `@${account.username}`
}

/** A person on a network: their display name with the username, or the username alone. */
export const personName = (person: { readonly username: string; readonly name: string | null }) =>
  person.name === null || person.name === "" ? `@${person.username}` : `${person.name} (@${person.username})`
