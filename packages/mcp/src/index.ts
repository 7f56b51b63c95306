export * as Server from "./Server.ts"
export * as Tools from "./Tools.ts"
