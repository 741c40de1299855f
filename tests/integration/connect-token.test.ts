import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { operatorHeaders, realServerFixture } from "../helpers/server";
import { addPersonByScript, connectByEmail, TEST_PASSWORD } from "../helpers/people";

// `plangate connect --email`: the person signs in once and the outside agent gets an `agent` token made for
// them, saved apart from the project (0600). Then, as the attack: that token, which the unsandboxed agent can
// read, submits its plan but cannot approve it; a wrong password changes nothing.
const fixture = realServerFixture("connect-token");
const PASSWORD = TEST_PASSWORD;
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function place() {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-config-"));
  made.push(config);
  const project = path.join(fixture.workspace, `p${made.length}`);
  fs.mkdirSync(project, { recursive: true });
  return { config, project, credentials: path.join(config, "plangate", "credentials.json") };
}

const connect = (agent: string, email: string, password: string, where: ReturnType<typeof place>) =>
  connectByEmail({ agent, url: fixture.server().url, cwd: where.project, configHome: where.config, email, password });

async function call(method: string, route: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${fixture.server().url}${route}`, {
    method,
    headers: { "content-type": "application/json", origin: fixture.server().url, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("plangate connect --email makes the agent its own token", () => {
  it("saves an agent token (0600, not in the project) that submits its plan but cannot decide it", async () => {
    addPersonByScript(fixture.env, "ines@example.com", "reviewer");
    const where = place();
    const r = connect("claude-code", "ines@example.com", PASSWORD, where);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain("agent token for ines@example.com saved in");
    const saved = JSON.parse(fs.readFileSync(where.credentials, "utf8")) as Record<string, string>;
    const secret = saved[fixture.server().url] ?? "";
    expect(secret).toMatch(/^pgt_/);
    expect(fs.statSync(where.credentials).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(where.project, ".claude/settings.json"), "utf8")).not.toContain(secret);

    const agent = { authorization: `Bearer ${secret}` };
    const submitted = await call(
      "POST",
      "/api/external/plan-reviews",
      { agent: "claude-code", externalSessionId: "cc-ines", cwd: where.project, plan: "# Plan\n\n1. Do it\n" },
      agent,
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const reviewId = submitted.body.reviewId as string;
    // Its person is a reviewer, but the token is the agent's: it decides nothing.
    const approve = await call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      agent,
    );
    expect(approve.status).toBe(403);
    const review = await call("GET", `/api/reviews/${reviewId}`, undefined, operatorHeaders());
    expect(review.body.review).toMatchObject({ status: "pending" });
    const tokens = await call("GET", "/api/tokens", undefined, operatorHeaders());
    expect(tokens.body.tokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scope: "agent", name: expect.stringMatching(/^claude-code on /) }),
      ]),
    );
  });

  it("a wrong password writes nothing: no plugin, no credentials", () => {
    addPersonByScript(fixture.env, "olaf@example.com", "member");
    const where = place();
    const r = connect("opencode", "olaf@example.com", "not the password", where);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("wrong email or password; nothing was changed");
    expect(fs.existsSync(path.join(where.project, ".opencode"))).toBe(false);
    expect(fs.existsSync(where.credentials)).toBe(false);
  });
});
