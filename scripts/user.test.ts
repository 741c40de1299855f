import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../lib/env";
import { authFor } from "../lib/auth/better-auth";
import { findPerson, membershipsOf } from "../lib/db/people/people";
import { freshDb, type TestDb } from "../tests/helpers/db";

// `npm run user` as a shell runs it, against a fresh database: add with a password on stdin, sign in with
// it; reset prints a one-time link; deactivate ends the session that was signed in.
const root = path.resolve(import.meta.dirname, "..");
let t: TestDb;
beforeEach(() => {
  t = freshDb();
  process.env.PLANGATE_DATA_DIR = t.dir;
  resetEnvCache();
});
afterEach(async () => {
  await t.close();
});

function user(args: string[], stdin = "") {
  return spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/user.ts", ...args], {
    cwd: root,
    input: stdin,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: t.url, PLANGATE_DATA_DIR: t.dir },
  });
}

describe("npm run user", () => {
  it("adds a person with a role, prints a reset link, and deactivates them at once", async () => {
    const added = user(
      ["add", "Rae@Example.com", "--role", "reviewer", "--name", "Rae", "--password-stdin"],
      "a long password\n",
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain("added rae@example.com as reviewer over /");
    const rae = await findPerson(t.db, { email: "rae@example.com" });
    expect(rae?.name).toBe("Rae");
    expect(await membershipsOf(t.db, rae!.id)).toEqual([{ root: "/", role: "reviewer" }]);
    const signedIn = await authFor(t.db).api.signInEmail({
      body: { email: "rae@example.com", password: "a long password" },
      headers: new Headers({ host: "localhost:3000" }),
      asResponse: true,
    });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

    const reset = user(["reset", "rae@example.com"]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/http:\/\/localhost:\d+\/link\/[\w-]{20,}/);

    expect(user(["add", "rae@example.com"]).status).toBe(1);
    expect(user(["add", "x@example.com", "--role", "admin"]).status).toBe(2);

    const off = user(["deactivate", "rae@example.com"]);
    expect(off.status, off.stderr).toBe(0);
    expect(await authFor(t.db).api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
  });
});
