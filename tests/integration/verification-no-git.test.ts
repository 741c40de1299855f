import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { sql } from "../../lib/db/sql";
import type { Manifest } from "../../lib/verify/file-manifest";
import { waitFor } from "../helpers/poll";

// Issue 28: a workspace without git is still verified honestly. A manifest of its files (no contents) is taken
// at approval, so a change made by a shell command is seen; and a failed check runs again after the agent was
// sent back to finish.
let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Plan: done flag\n\n1. Add a done flag in src/todo.ts\n2. Document it in README.md\n3. Remove old.txt\n";

type Verification = {
  status: string;
  report: {
    items: { status: string; evidence: string[]; reason: string }[];
    unplanned: string[];
    gitUnchecked?: string;
  };
};

/** A workspace that is not a git repository, whose (trusted) config lets bash run without asking. */
async function plainWorkspace(): Promise<Api> {
  const a = testApi({
    files: {
      "README.md": "# Todo\n",
      "src/todo.ts": "export const todos = [];\n",
      "old.txt": "to be removed\n",
      "keep.txt": "unchanged\n",
      ".plangate/config.json": JSON.stringify({ permission: { bash: { "*": "allow" } } }),
    },
  });
  await trustWorkspaceConfig(a, a.workspace);
  return a;
}

const verifications = async (id: string): Promise<Verification[]> =>
  (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications;

async function approveAndWaitFor(id: string, count: number): Promise<Verification[]> {
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "add a done flag" });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
  await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
  return waitFor(
    "the verification",
    async () => ((await verifications(id)).length >= count ? verifications(id) : null),
    30_000,
  );
}

describe("verification outside git", () => {
  it("sees what shell commands changed, through the manifest taken at approval; a touched file is not a change", async () => {
    api = await plainWorkspace();
    expect(fs.existsSync(path.join(api.workspace, ".git"))).toBe(false);
    const id = await startScripted(
      api,
      [
        exitWith(PLAN),
        call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
        call("bash", { command: "printf 'Todos have a done flag.\\n' >> README.md && rm old.txt && touch keep.txt" }),
        { text: "finished" },
      ],
      { mode: "plan" },
    );
    const [v] = await approveAndWaitFor(id, 1);
    expect(v?.report.items.map((i) => [i.status, i.evidence])).toEqual([
      ["unverified", ["src/todo.ts (modified)"]],
      ["unverified", ["README.md (modified, outside the tools)"]],
      ["unverified", ["old.txt (deleted, outside the tools)"]],
    ]);
    expect(v?.report.unplanned).toEqual([]);
    expect(v?.report.gitUnchecked).toBeUndefined();
    // Every change is seen; with no verify command nothing checked them, so not a pass.
    expect(v?.status).toBe("unverified");
    const [row] = await (await sql(api.t.db)).query<{ baselineTree: string; baselineManifest: string }>(
      'SELECT v."baselineTree", v."baselineManifest" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? AND v."status" = ?',
      [id, "approved"],
    );
    expect(row?.baselineTree).toBe("manifest");
    // Paths, sizes, times and hashes only: no file's contents are stored.
    expect(row?.baselineManifest).toContain('"README.md"');
    expect(row?.baselineManifest).not.toContain("to be removed");
  });

  it("a failed check runs again when the agent, sent back, finishes the plan; the second finds every item changed", async () => {
    api = await plainWorkspace();
    const id = await startScripted(
      api,
      [
        exitWith(PLAN),
        call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
        { text: "Only the flag." },
        call("bash", { command: "printf 'Todos have a done flag.\\n' >> README.md && rm old.txt" }),
        { text: "Now the rest." },
      ],
      { mode: "plan" },
    );
    const [first] = await approveAndWaitFor(id, 1);
    expect(first?.status).toBe("fail");
    const notDone = first?.report.items.filter((i) => i.status === "missing").map((i) => i.reason);
    expect(notDone).toEqual(["none of its files changed (README.md)", "none of its files changed (old.txt)"]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "Please finish the plan." });
    const all = await waitFor(
      "the second verification",
      async () => {
        const v = await verifications(id);
        return v.length >= 2 ? v : null;
      },
      30_000,
    );
    expect(all.map((v) => v.status)).toEqual(["fail", "unverified"]);
  });

  // Issue 43, the attack on manifest reuse: verification reuses the baseline's hashes of files whose inode, size and
  // times are as they were. After approval the agent's command rewrites a file outside the plan at the same size
  // and puts its old time back (`touch -d`); the file's change time is the kernel's, so the edit is still seen.
  it("a same-size rewrite with its old time put back is seen by verification as unplanned", async () => {
    api = await plainWorkspace();
    const keep = path.join(api.workspace, "keep.txt");
    const old = new Date("2001-01-01T00:00:00Z");
    fs.utimesSync(keep, old, old);
    // Reuse trusts only what changed before the baseline's walk started (whole seconds, one of margin): the clock
    // passes that point, so without the change time's check the rewrite would be hidden.
    const trustedFrom = fs.statSync(keep).ctimeMs + 2_000;
    await waitFor("keep.txt to be older than a walk started now", async () => (Date.now() > trustedFrom ? 1 : null));
    const rewrite = "printf 'UNCHANGED\\n' > keep.txt && touch -d 2001-01-01T00:00:00Z keep.txt";
    const id = await startScripted(api, [exitWith(PLAN), call("bash", { command: rewrite }), { text: "finished" }], {
      mode: "plan",
    });
    const [verification] = await approveAndWaitFor(id, 1);
    expect(fs.readFileSync(keep, "utf8")).toBe("UNCHANGED\n");
    expect(fs.statSync(keep).mtimeMs).toBe(old.getTime());
    const [row] = await (await sql(api.t.db)).query<{ baselineManifest: string }>(
      'SELECT v."baselineManifest" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? AND v."status" = ?',
      [id, "approved"],
    );
    const baseline = JSON.parse(row?.baselineManifest ?? "null") as Manifest;
    const entry = baseline.files["keep.txt"];
    // The baseline held the old content's hash, with times older than its walk: the entry reuse would have trusted.
    expect(entry?.[2]).toBe(createHash("sha1").update("unchanged\n").digest("hex"));
    expect(entry?.[1]).toBeLessThan(baseline.takenAt as number);
    expect(entry?.[3]).toBeLessThan(baseline.takenAt as number);
    expect(verification?.report.unplanned).toContain("keep.txt");
  });
});
