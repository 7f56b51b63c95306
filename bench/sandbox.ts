// bench/sandbox: what the sandbox networks hold for a workspace, read from `GET /sandbox/<network>/_posts` of a
// running Herald with the workspace's key and kept across reads (merged by id), so the benches that fault
// Herald while it publishes (killloop, drops) can count each target's copies on its network.

/** One thing a sandbox network holds for an account: a post (a thread's reply has `replyTo`) or its own comment. */
export interface Held {
  readonly id: string
  readonly username: string | null
  readonly text: string
  readonly replyTo: string | null
}

/** Every post and own comment the sandbox networks were seen to hold, by network and id. */
export class Holdings {
  readonly posts = new Map<string, Map<string, Held>>()
  readonly comments = new Map<string, Map<string, Held>>()
  readonly networks: ReadonlyArray<string>

  constructor(networks: ReadonlyArray<string>) {
    this.networks = networks
    for (const network of networks) {
      this.posts.set(network, new Map())
      this.comments.set(network, new Map())
    }
  }

  /**
   * Reads every network of the Herald at `base`, as the workspace of `key` sees it; a network that does not
   * answer in time is read next time.
   */
  async read(base: string, key: string): Promise<void> {
    for (const network of this.networks) {
      try {
        const answer = await fetch(`${base}/sandbox/${network}/_posts`, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(10_000)
        })
        if (answer.status !== 200) continue
        const page = await answer.json() as { data: Array<Held>; comments?: Array<Held> }
        for (const post of page.data) this.posts.get(network)!.set(post.id, post)
        for (const comment of page.comments ?? []) this.comments.get(network)!.set(comment.id, comment)
      } catch {
        // A process too busy to answer in time: the next read covers it.
      }
    }
  }

  /** The network's top-level posts of `username` whose text carries `marker`. */
  roots(network: string, marker: string, username: string): ReadonlyArray<Held> {
    return [...this.posts.get(network)!.values()].filter((item) =>
      item.replyTo === null && item.text.includes(marker) && (item.username === null || item.username === username)
    )
  }

  /** The replies and own comments carrying `marker` (a thread's later posts, a first comment), counted by text. */
  parts(network: string, marker: string, username: string): Map<string, number> {
    const counts = new Map<string, number>()
    const items = [
      ...[...this.posts.get(network)!.values()].filter((item) => item.replyTo !== null),
      ...this.comments.get(network)!.values()
    ]
    for (const item of items) {
      if (!item.text.includes(marker) || (item.username !== null && item.username !== username)) continue
      counts.set(item.text, (counts.get(item.text) ?? 0) + 1)
    }
    return counts
  }
}

/** A post's target as `GET /api/v1/posts/:id` answers it. */
export interface Target {
  readonly platform: string
  readonly username: string
  readonly status: string
  readonly error: string | null
}

/**
 * Waits until no post is scheduled or publishing (asking `api`, which answers `GET /api/v1<path>`), or
 * `settleMs` has passed. Answers whether everything ended, and how long it took.
 */
export const settle = async (api: (path: string) => Promise<Response>, settleMs: number, everyMs = 1_000) => {
  const began = Date.now()
  while (Date.now() - began < settleMs) {
    const answer = await api("/posts?status=scheduled,publishing&limit=1")
    const page = await answer.json() as { data?: Array<unknown> }
    if (answer.status === 200 && page.data?.length === 0) return { settled: true, inMs: Date.now() - began }
    await new Promise((done) => setTimeout(done, everyMs))
  }
  return { settled: false, inMs: Date.now() - began }
}

/**
 * The failed targets' reasons, grouped once the account, ids and other particulars are taken out, most
 * frequent first, one line each; `wrongly` marks those whose post the network holds all the same.
 */
export const failureLines = <R extends { readonly target: Target }>(
  rows: ReadonlyArray<R>,
  wrongly: (row: R) => boolean,
  width = 150
): ReadonlyArray<string> => {
  const failures = new Map<string, number>()
  for (const row of rows) {
    if (row.target.status !== "failed") continue
    const reason = `${wrongly(row) ? "WRONGLY " : ""}${
      (row.target.error ?? "").replace(/@\S+/g, "@…").replace(/'[^']*'|\b[\w:~.-]*\d[\w:~.-]*\b/g, "…").slice(0, width)
    }`
    failures.set(reason, (failures.get(reason) ?? 0) + 1)
  }
  return [...failures].sort((a, b) => b[1] - a[1]).map(([reason, times]) => `  failed ×${times}: ${reason}`)
}
