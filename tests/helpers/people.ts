import { spawnSync } from "node:child_process";
import path from "node:path";
import type { Role } from "../../lib/auth/rules/rights";
import type { Db } from "../../lib/db/client";
import { authFor } from "../../lib/auth/better-auth";
import { createPerson } from "../../lib/db/people/people";

const repo = path.resolve(import.meta.dirname, "../..");
/** The password the suites give the people they add. */
export const TEST_PASSWORD = "a long password!";

/** `npm run user -- add` against a test server's own database and data folder, as a person's shell runs it. */
export function addPersonByScript(env: Record<string, string>, email: string, role: string) {
  const r = spawnSync(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/user.ts",
      "add",
      email,
      "--role",
      role,
      "--password-stdin",
    ],
    { cwd: repo, input: `${TEST_PASSWORD}\n`, encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`npm run user -- add ${email}: ${r.stderr || r.stdout}`);
}

/** A person signs in over HTTP with the suites' password: the session cookie their browser would send. */
export async function signInOverHttp(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

/** A signed-in person's approval of a review, as their browser sends it. */
export async function approveAs(url: string, cookie: string, reviewId: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/api/reviews/${reviewId}/decision`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: url },
    body: JSON.stringify({ decision: "approve", ...extra }),
  });
  return { status: res.status, body: (await res.json()) as { review?: { status: string } } };
}

/**
 * `plangate connect <agent> --email … --password-stdin`: the person signs in once and the agent's `agent` token is
 * saved under `configHome` (XDG_CONFIG_HOME), where the agent's hook or plugin then finds it. No operator token.
 */
export function connectByEmail(
  o: {
    agent: string;
    url: string;
    cwd: string;
    configHome: string;
    email: string;
    password?: string;
    /** More of the environment (HOME for an agent whose settings live there). */
    env?: Record<string, string>;
  },
  extra: string[] = [],
) {
  return spawnSync(
    process.execPath,
    [
      path.join(repo, "bin/plangate.mjs"),
      "connect",
      o.agent,
      "--url",
      o.url,
      "--email",
      o.email,
      "--password-stdin",
      ...extra,
    ],
    {
      cwd: o.cwd,
      input: `${o.password ?? TEST_PASSWORD}\n`,
      encoding: "utf8",
      env: { ...process.env, PLANGATE_TOKEN: "", XDG_CONFIG_HOME: o.configHome, ...o.env },
      timeout: 60_000,
    },
  );
}

/** Adds a person with these roles and signs them in: the session cookie their browser would send. */
export async function signedInCookie(
  db: Db,
  email: string,
  roles: { root: string; role: Role }[],
): Promise<{ cookie: string; userId: string }> {
  const person = await createPerson(db, {
    email,
    name: email.split("@")[0] ?? email,
    password: TEST_PASSWORD,
    memberships: roles,
  });
  const res = await authFor(db).api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    headers: new Headers({ host: "localhost:3000" }),
    asResponse: true,
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status}`);
  return { cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "", userId: person.id };
}
