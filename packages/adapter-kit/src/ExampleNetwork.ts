// A minimal network, made only of the kit, to show the contract end to end and to stand for a
// third-party network in tests. Its pieces are in `example/`, each named as the file of a real adapter's
// `src/` that holds the same (docs/adapters/writing-an-adapter.md, "1. The package"): `ExampleLimits.ts`,
// `ExampleOptions.ts`, `ExampleAdapter.ts` with `internal/errors.ts`, and `ExampleSimulator.ts`; this
// file puts them together as the kit's testing export. Its API: OAuth 2 with PKCE, `GET /me`,
// `POST /posts`, `GET /posts?author=` for reconcile; the inbox as `GET /inbox?after=<cursor>`,
// `POST /comments/:id/replies` and `POST /conversations/:id/messages`; errors as
// `{ "error": { "code", "message" } }`. A post's text is at most 100 characters, and it is seen by
// everyone or by followers only (`visibility`, the network's one post option). Its simulator also serves
// the kit's control routes.

export { api, limits } from "./example/ExampleLimits.ts"
export { make } from "./example/ExampleAdapter.ts"
export { options } from "./example/ExampleOptions.ts"
export { simulator } from "./example/ExampleSimulator.ts"
