import { PublishError } from "@herald/adapter-kit"
import type { Container } from "../ThreadsClient.ts"
import * as Errors from "./errors.ts"

/**
 * What publishing and the inbox's replies share about Threads' containers: how long a reply container is
 * waited for, and the error of one Threads could not use.
 */

const network = "threads"

/** Looks at a reply container this many times, a second apart, before giving up for a later try. */
export const replyChecks = 5

/** A container Threads could not prepare (ERROR) or that expired unpublished (EXPIRED, after 24 h). */
export const unusable = (container: Container, what: string) =>
  PublishError.rejected(network, Errors.containerFailure(container.error_message, what, container.status))
