import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Outside Next, "server-only" resolves to its marker's empty module (Next's server layers pick the same file through
// the react-server condition; a client bundle gets the throwing one).
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};
// Every suite acts with a credential: the operator's token (PLANGATE_TOKEN), passed on to the servers and CLIs
// it starts; tests of people and scoped tokens make their own.
export const TEST_OPERATOR_TOKEN = "plangate-test-operator-token";
// The SQLite pass's test files share one process (isolate: false): each file's fresh process spent a second
// importing the same modules again, 40% of the pass. What a file changes in process.env is put back after it (tests/restore-env.ts);
// a file that replaces modules with vi.mock runs in a process of its own (the "-mocks" projects), since a mock
// would otherwise stay for the files after it.
const shared = {
  globalSetup: ["tests/global-setup.ts"],
  setupFiles: ["tests/restore-env.ts"],
  env: { PLANGATE_TOKEN: TEST_OPERATOR_TOKEN },
  pool: "forks" as const,
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
/** Every test file that calls vi.mock or vi.doMock, found by reading them (a new one is never missed). */
function mockingSuites(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : mockingSuites(file);
    if (!e.name.endsWith(".test.ts") || !/\bvi\.(doMock|mock)\(/.test(fs.readFileSync(file, "utf8"))) return [];
    return [path.relative(import.meta.dirname, file)];
  });
}
const MOCKING_SUITES = ["lib", "tests", "scripts"].flatMap((d) => mockingSuites(path.join(import.meta.dirname, d)));
/** A pass as two projects: the shared-process one, and the files that mock modules, each in its own process. */
function pass(
  name: string,
  include: string[],
  extra: { exclude?: string[]; env?: Record<string, string>; isolate?: boolean } = {},
) {
  const exclude = [...configDefaults.exclude, ...(extra.exclude ?? [])];
  const test = { ...shared, isolate: extra.isolate ?? shared.isolate, env: { ...shared.env, ...extra.env } };
  return [
    { resolve: { alias }, test: { ...test, name, include, exclude: [...exclude, ...MOCKING_SUITES] } },
    {
      resolve: { alias },
      test: { ...test, name: `${name}-mocks`, include: MOCKING_SUITES, exclude, isolate: true },
    },
  ];
}

// The database-backed suites run twice: on SQLite and on PostgreSQL (a private cluster the global setup starts).
// Without PostgreSQL on the machine that second run is skipped, and says so, except in CI, where it must run.
// (scripts/local-postgres.ts looks in the same places; the config cannot import TypeScript without an extension.)
const debianPg = "/usr/lib/postgresql";
const pgInstalled =
  fs.existsSync(debianPg) &&
  fs.readdirSync(debianPg).some((v) => fs.existsSync(path.join(debianPg, v, "bin", "initdb")));
const pgAvailable = Boolean(process.env.PLANGATE_TEST_PG_URL || process.env.PLANGATE_PG_BIN || pgInstalled);
if (!pgAvailable) {
  if (process.env.CI)
    throw new Error(
      "CI is set but PostgreSQL is not installed: the PostgreSQL suites must run in CI (apt-get install -y postgresql)",
    );
  console.warn(
    "plangate: PostgreSQL is not installed here, so the PostgreSQL suites are skipped (apt-get install -y postgresql to run them)",
  );
}

// Suites whose subject is the operating system's boundary, the files on disk or the command line, not stored state:
// the database only holds their sessions, so they run once, on SQLite (every security suite still runs in CI).
export const ENGINE_NEUTRAL_SUITES = [
  "sandbox-lifeline",
  "sandbox-plan-mode",
  "shell-compositions",
  "shell-control-files",
  "shell-host-network",
  "shell-planted-controls",
  "control-files-table",
  "control-effects",
  "control-gaps-attack",
  "file-tools-boundary-attack",
  "git-discovery-attack",
  "plan-file-fifo-attack",
  "plan-file-links",
  "plan-file-untrusted",
  "plan-folder-probe",
  "proc-environ-probe",
  "snapshot-own-folders",
  "unsandboxed",
  "serve-env",
  "cli-file",
  "cli-options",
  "start-log",
  "connect-attack",
  "connect-agents-attack",
  "connect-amp",
  "await-review-deadline",
].map((name) => `tests/integration/${name}.test.ts`);

export const POSTGRES_SUITES = [
  "tests/integration/**/*.test.ts",
  "tests/multi-instance/**/*.test.ts",
  "lib/session/*.test.ts",
  "lib/db/*.test.ts",
  "lib/db/people/*.test.ts",
  "lib/auth/*.test.ts",
];

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default (a core less than the machine has) is one worker on a 2-core machine, and the suites wait on
    // servers, agent CLIs and sandboxes more than they compute, so there it is two.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      ...pass("sqlite", [
        "lib/**/*.test.ts",
        "tests/integration/**/*.test.ts",
        "scripts/**/*.test.ts",
        "tests/agents/**/*.test.ts",
        "tests/install/**/*.test.ts",
      ]),
      ...(pgAvailable
        ? pass("postgres", POSTGRES_SUITES, {
            // PostgreSQL keeps a file's process to itself: connections a file leaves open (a LISTEN that
            // reconnects, a pool) piled up in a shared one, and the pass ran several times slower.
            isolate: true,
            exclude: ENGINE_NEUTRAL_SUITES,
            env: { PLANGATE_TEST_DB: "postgres" },
          })
        : []),
    ],
  },
});
