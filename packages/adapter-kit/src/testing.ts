export * as AdapterSuite from "./AdapterSuite.ts"
export * as ExampleNetwork from "./ExampleNetwork.ts"
export * as RulesSuite from "./RulesSuite.ts"
