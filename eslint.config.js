// Herald's lint (decision 0080): promises nobody waits for, and the escape hatches the house style keeps out
// of `src/`. No style rules: formatting is not linted. Unused exports, files and dependencies are knip's
// (knip.jsonc). An exception is one rule disabled inline with its reason after `--`.
import comments from "@eslint-community/eslint-plugin-eslint-comments"
import tseslint from "typescript-eslint"

const src = ["packages/*/src/**/*.ts", "apps/*/src/**/*.{ts,tsx}", "adapters/*/src/**/*.ts"]
const tests = ["packages/*/test/**/*.{ts,tsx}", "apps/*/test/**/*.{ts,tsx}", "adapters/*/test/**/*.ts", "testing/**/*.ts"]

// Each promise is awaited, returned, handled, or marked `void` where nobody is to wait for it.
const promiseRules = {
  "@typescript-eslint/no-floating-promises": "error",
  "@typescript-eslint/no-misused-promises": "error"
}

export default [
  {
    linterOptions: { reportUnusedDisableDirectives: "error", reportUnusedInlineConfigs: "error" }
  },
  {
    files: [...src, ...tests],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ["./tsconfig.json", "./apps/console/tsconfig.json"], tsconfigRootDir: import.meta.dirname }
    },
    plugins: { "@typescript-eslint": tseslint.plugin, "@eslint-community/eslint-comments": comments },
    rules: {
      ...promiseRules,
      // An exception names the one rule it lifts and says why.
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: ["eslint-enable"] }],
      "@eslint-community/eslint-comments/no-unlimited-disable": "error",
      "@eslint-community/eslint-comments/disable-enable-pair": ["error", { allowWholeFile: false }]
    }
  },
  {
    // The type system's escape hatches, everywhere in `src/` (tests may type a fake loosely).
    files: src,
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error"
    }
  },
  {
    // Effect code's escape hatches (house style, rule 4), each with what to use instead. Not the console (a
    // React app, whose libraries take promises and throw) nor packages/client (an SDK without Effect for the
    // users' own servers, whose documented errors are thrown).
    files: src,
    ignores: ["apps/console/src/**", "packages/client/src/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Read the time from `Clock` (or `DateTime.now`), which tests move." },
        { object: "JSON", property: "parse", message: "Decode with a Schema (`Schema.fromJsonString`), which checks the value." }
      ],
      "no-restricted-globals": ["error", { name: "fetch", message: "Send through `HttpClient`, which is traced, timed out and faked in tests." }],
      "no-restricted-syntax": [
        "error",
        { selector: "TryStatement", message: "Catch with `Effect.try`/`Effect.tryPromise` into a typed error (or `URL.parse` for an address)." },
        { selector: "ThrowStatement", message: "Fail with `return yield* new SomeError(...)`, or die with `Effect.die`." },
        { selector: ":function[async=true]", message: "Wrap a promise-based library once at its edge with `Effect.tryPromise`." }
      ]
    }
  },
  {
    // A simulator is the network's server, not Herald: it keeps the wall clock, whatever a test does to
    // Herald's `Clock`.
    files: [
      "packages/adapter-kit/src/Simulator*.ts",
      "packages/adapter-kit/src/internal/simulator*.ts",
      "adapters/*/src/*Simulator*.ts",
      "adapters/*/src/internal/simulator*.ts"
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "JSON", property: "parse", message: "Decode with a Schema (`Schema.fromJsonString`), which checks the value." }
      ]
    }
  },
  {
    // Test code that ships in `src/` for the adapters' tests (`@herald/adapter-kit/testing`,
    // `@herald/db/testing`): it runs under vitest, as the tests do.
    files: [
      "packages/adapter-kit/src/AdapterSuite.ts",
      "packages/adapter-kit/src/internal/suite*.ts",
      "packages/adapter-kit/src/internal/cutOff.ts",
      "packages/db/src/testing.ts",
      "packages/db/src/internal/embeddedTemplate.ts"
    ],
    rules: { "no-restricted-properties": "off", "no-restricted-globals": "off", "no-restricted-syntax": "off" }
  }
]
