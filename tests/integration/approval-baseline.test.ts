import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { awaitReview, call, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { kick } from "../../lib/agent/kick";
import { driveSession } from "../../lib/agent/drive-session";
import { recoverInterrupted } from "../../lib/agent/recover-interrupted";
import { readEvents } from "../../lib/db/session-log/read-events";
import { appendEvents } from "../../lib/session/append-events";
import { acquireLease, releaseLease } from "../../lib/session/lease";
import { sql } from "../../lib/db/sql";
import { waitFor } from "../helpers/poll";

// Each snapshot waits on the next hold queued here (if any) before it reads the workspace: a snapshot made as
// slow as the test likes, or one that never finishes (the process that took it died).
const snap = vi.hoisted(() => ({ holds: [] as Promise<void>[], started: 0 }));
vi.mock("../../lib/verify/git-snapshot", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/verify/git-snapshot")>();
  return {
    ...real,
    snapshotTree: async (workspace: string) => {
      snap.started++;
      const hold = snap.holds.shift();
      if (hold) await hold;
      return real.snapshotTree(workspace);
    },
  };
});

function held(): { release: () => void } {
  let release = () => {};
  snap.holds.push(new Promise<void>((r) => (release = r)));
  return { release: () => release() };
}

let api: Api;
const releases: (() => void)[] = [];
beforeEach(() => {
  snap.started = 0;
});
afterEach(async () => {
  for (const r of releases.splice(0)) r();
  snap.holds.length = 0;
  await new Promise((r) => setTimeout(r, 300));
  await api?.close();
});

const PLAN = "# Plan: greeting\n\n1. Write the greeting in hello.txt\n";
// The agent's first post-approval step writes a file behind the tools' backs: only git can see it.
const WORK = [
  exitWith(PLAN),
  call("bash", { command: "printf 'written after approval\\n' > hello.txt" }),
  { text: "finished" },
];

type Report = {
  status: string;
  items: { status: string; evidence: string[] }[];
  summary: string;
  gitUnchecked?: string;
};

async function gitWorkspace(): Promise<Api> {
  const a = testApi({
    files: {
      "README.md": "# Notes\n",
      ".plangate/config.json": JSON.stringify({ permission: { bash: { "*": "allow" } } }),
    },
  });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  // The config is the test's own, trusted as a person would on the workspace page.
  await trustWorkspaceConfig(a, a.workspace);
  return a;
}

async function reviewOpen(): Promise<{ id: string; review: string }> {
  const id = await startScripted(api, WORK, { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "write notes" });
  return { id, review: await awaitReview(api, id) };
}

async function approve(review: string): Promise<void> {
  expect(
    (await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" })).status,
  ).toBe(200);
}

async function baselineOf(id: string): Promise<string | null> {
  const [row] = await (await sql(api.t.db)).query<{ baselineTree: string | null }>(
    'SELECT v."baselineTree" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? AND v."status" = ?',
    [id, "approved"],
  );
  return row?.baselineTree ?? null;
}

async function toolsSinceApproval(id: string): Promise<string[]> {
  const events = await readEvents(api.t.db, id);
  const approvedAt = events.find((e) => e.type === "review.answered")?.seq ?? Infinity;
  return events.flatMap((e) => (e.type === "tool.called" && e.seq > approvedAt ? [e.payload.tool] : []));
}

const filesIn = (tree: string) =>
  execFileSync("git", ["ls-tree", "-r", "--name-only", tree], { cwd: api.workspace, encoding: "utf8" }).split("\n");
const verification = (id: string) =>
  waitFor(
    "the verification",
    async () =>
      (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0]?.report as Report | undefined,
    30_000,
  );
const expireLease = (id: string) =>
  api.t.db.session.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1000) } });

/** Approves, and the snapshot it started never finishes (its process is as good as dead) until its lease runs out. */
async function approveThenSnapshotterDies(id: string, review: string): Promise<{ release: () => void }> {
  const dead = held();
  releases.push(dead.release);
  await approve(review);
  await waitFor("the snapshot to start", async () => snap.started >= 1);
  await expireLease(id);
  return dead;
}

describe("the approval baseline: taken after the decision commits, before the agent's first tool", () => {
  it("the approval answers while the snapshot is still held; no drive runs a tool until it is written; the agent's write shows as a change", async () => {
    api = await gitWorkspace();
    const { id, review } = await reviewOpen();
    const hold = held();
    releases.push(hold.release);
    // Answered while the snapshot cannot finish: the request does not wait for it.
    await approve(review);
    expect((await readEvents(api.t.db, id)).some((e) => e.type === "review.answered")).toBe(true);
    await waitFor("the snapshot to start", async () => snap.started >= 1);
    // Every other way in while it is held finds the lease taken: another kick, a drive that skips kick.
    kick(api.t.db, id);
    await driveSession(api.t.db, id);
    await new Promise((r) => setTimeout(r, 300));
    expect(await toolsSinceApproval(id)).toEqual([]);
    expect(fs.existsSync(path.join(api.workspace, "hello.txt"))).toBe(false);
    expect(await baselineOf(id)).toBeNull();

    hold.release();
    const report = await verification(id);
    expect(await toolsSinceApproval(id)).toEqual(["bash"]);
    const baseline = await baselineOf(id);
    expect(baseline).toMatch(/^[0-9a-f]{40}$/);
    expect(filesIn(baseline!)).toContain("README.md");
    expect(filesIn(baseline!)).not.toContain("hello.txt");
    expect(report.items[0]).toMatchObject({ status: "unverified", evidence: ["hello.txt (added, outside the tools)"] });
    expect(report.status).toBe("unverified");
    expect(report.gitUnchecked).toBeUndefined();
  });

  it("a process that died between the commit and the snapshot: the resumed session takes the baseline before any tool", async () => {
    api = await gitWorkspace();
    const { id, review } = await reviewOpen();
    const dead = await approveThenSnapshotterDies(id, review);
    // The recovery sweep marks the turn interrupted (as after 30 s without its process).
    expect(await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000))).toEqual([id]);
    expect(await toolsSinceApproval(id)).toEqual([]);

    expect((await api.call("POST", `/api/sessions/${id}/resume`)).status).toBe(202);
    const report = await verification(id);
    const baseline = await baselineOf(id);
    expect(filesIn(baseline!)).not.toContain("hello.txt");
    expect(report.items[0]).toMatchObject({ status: "unverified", evidence: ["hello.txt (added, outside the tools)"] });

    // The old holder wakes up late: its snapshot (which would hold the agent's write) is not recorded.
    dead.release();
    await new Promise((r) => setTimeout(r, 500));
    expect(await baselineOf(id)).toBe(baseline);
  });

  it("a drive that held the lease when the decision committed and ran a tool first: the loss is recorded once and verification says git was not checked", async () => {
    api = await gitWorkspace();
    const { id, review } = await reviewOpen();
    // Another drive holds the lease at the instant of the decision (the one window left): the decision cannot
    // hold the session for its snapshot, and that drive's next step writes before any baseline exists.
    const other = await acquireLease(api.t.db, id);
    expect(other).not.toBeNull();
    await approve(review);
    fs.writeFileSync(path.join(api.workspace, "hello.txt"), "written before the baseline\n");
    await appendEvents(api.t.db, id, [
      { type: "tool.called", payload: { callId: "call_early", tool: "write", input: { path: "hello.txt" } } },
      { type: "tool.result", payload: { callId: "call_early", tool: "write", ok: true, output: "wrote hello.txt" } },
    ]);
    await releaseLease(api.t.db, id, other as string);

    // The next drive records the loss (and says so in the log) instead of snapshotting after the agent's work.
    kick(api.t.db, id);
    await waitFor("the loss to be recorded", async () => (await baselineOf(id)) === "lost");
    expect(snap.started).toBe(0);
    const report = await verification(id);
    expect(report.gitUnchecked).toBe("the workspace was not captured when the plan was approved");
    expect(report.summary).toContain("changes outside the tools not checked");
    kick(api.t.db, id);
    await new Promise((r) => setTimeout(r, 200));
    const notices = (await readEvents(api.t.db, id)).filter(
      (e) => e.type === "notice" && e.payload.text.includes("not captured"),
    );
    expect(notices).toHaveLength(1);
  });

  it("a drive that bypasses kick still takes the owed baseline before the agent's first tool", async () => {
    api = await gitWorkspace();
    const { id, review } = await reviewOpen();
    const dead = await approveThenSnapshotterDies(id, review);
    // A drive that does not go through kick comes along.
    const hold = held();
    const drive = driveSession(api.t.db, id);
    await waitFor("the drive's own snapshot to start", async () => snap.started >= 2);
    expect(fs.existsSync(path.join(api.workspace, "hello.txt"))).toBe(false);
    hold.release();
    await drive;
    expect(fs.existsSync(path.join(api.workspace, "hello.txt"))).toBe(true);
    const tree = await baselineOf(id);
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(filesIn(tree as string)).not.toContain("hello.txt");
    // The dead snapshotter finishing late writes nothing over it.
    dead.release();
    await new Promise((r) => setTimeout(r, 300));
    expect(await baselineOf(id)).toBe(tree);
  });

  it("outside a git repository the baseline is a manifest of the files, taken without git", async () => {
    api = testApi({ files: { "README.md": "# Notes\n" } });
    const id = await startScripted(api, [exitWith(PLAN), { text: "ok" }], { mode: "plan" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    await approve(await awaitReview(api, id));
    await waitFor("the turn to end", async () =>
      (await readEvents(api.t.db, id)).some((e) => e.type === "message.assistant" && e.payload.text === "ok"),
    );
    expect(await baselineOf(id)).toBe("manifest");
    expect(snap.started).toBe(0);
  });
});
