import { afterAll } from "vitest";
import { resetEnvCache } from "../lib/env";

// Files share a process (vitest.config.ts, isolate: false): whatever one sets in process.env, the next must not
// see, nor the database client a file made the app's own (tests/helpers/api.ts): the next file starts as its own
// process would, with none.
const before = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
  resetEnvCache();
  delete (globalThis as { plangateDb?: unknown }).plangateDb;
});
