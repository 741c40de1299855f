import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { addPersonByScript } from "../tests/helpers/people";

/** The one e2e server's database and data folder (playwright.config.ts starts it with these). */
export const SERVER_ENV = { DATABASE_URL: "file:./data/e2e/plangate.db", PLANGATE_DATA_DIR: "./data/e2e" };
export const serverDb = createDb(SERVER_ENV.DATABASE_URL);

/**
 * Reviewers of a workspace of their own for one spec: made before its tests, and removed after with every review
 * policy (other specs share this server, and people.spec needs an install with no accounts left behind).
 */
export function reviewersOf(workspaceName: string, people: readonly string[]): { workspace: string } {
  const workspace = path.resolve("data/e2e/workspaces", workspaceName);
  test.beforeAll(() => {
    fs.mkdirSync(workspace, { recursive: true });
    for (const email of people) addPersonByScript(SERVER_ENV, email, "reviewer");
  });
  test.afterAll(async () => {
    await serverDb.reviewPolicy.deleteMany({});
    await serverDb.user.deleteMany({ where: { email: { in: [...people] } } });
  });
  return { workspace };
}

/** The operator sets the workspace's review policy to two approvals by anyone who may decide (self-approval on). */
export async function twoApprovals(request: APIRequestContext, workspace: string): Promise<void> {
  const set = await request.put("/api/policies", {
    data: { workspace, approvals: 2, allowSelfApproval: true, paths: [] },
  });
  expect(set.status(), await set.text()).toBe(200);
}
