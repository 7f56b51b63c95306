export * as Database from "./Database.ts"
export * as DatabaseInfo from "./DatabaseInfo.ts"
export * as DataDirLock from "./DataDirLock.ts"
export * as PgliteBridge from "./PgliteBridge.ts"
