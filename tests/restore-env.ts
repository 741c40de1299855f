import { afterAll } from "vitest";
import { resetEnvCache } from "../lib/env";

// Files share a process (vitest.config.ts, isolate: false): whatever one sets in process.env, the next must not see.
const before = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
  resetEnvCache();
});
