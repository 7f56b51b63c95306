export * as Server from "./Server.ts"
export * as Tool from "./Tool.ts"
export * as Tools from "./Tools.ts"
