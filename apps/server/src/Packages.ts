import type { NetworkPackage } from "./NetworkPackages.ts"

/**
 * The networks this app installs. A third party's adapter package is offered by adding its entry here;
 * nothing in the core changes.
 */
export const all: ReadonlyArray<NetworkPackage> = []
