import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Account } from "@herald/domain"
import { Data } from "./Envelope.ts"

export class AccountsApi extends HttpApiGroup.make("accounts").add(
  HttpApiEndpoint.get("list", "/accounts", {
    // Not paged: a workspace has a handful of accounts, so the body is exactly `{ "data": [...] }`.
    success: Data(Schema.Array(Account.Account))
  }).annotate(OpenApi.Summary, "List connected accounts with their ids")
).annotateMerge(OpenApi.annotations({ title: "Accounts" })) {}
