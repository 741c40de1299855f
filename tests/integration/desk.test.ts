import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DeskItem } from "../../lib/desk/views/desk-view";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { teamKit } from "../helpers/team-kit";

// Issue 28, on both engines: the desk lists what waits for a person from every source, and only what the reader
// may read. Each attack reads it as someone who should see less, then checks what came back.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});
const { newTeam, spawn, awaiting } = teamKit(() => api);
const { person, setPolicy } = policyKit(() => api);

const desk = async (query = "", as?: { cookie: string }) => {
  const res = await api.call("GET", `/api/desk${query}`, undefined, as);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: DeskItem[]; next: string | null; waiting: number; forYou: number };
};

/** A Plangate plan, a teammate's plan, Claude Code's plan and a permission ask, made in this order. */
async function fourSources() {
  const own = await startScripted(api, [exitWith("# Add a ping route\n\n1. x\n"), { text: "ok" }], { mode: "plan" });
  await api.call("POST", `/api/sessions/${own}/messages`, { text: "plan it" });
  const ownReview = await awaitReview(api, own);
  const { teamId } = await newTeam();
  const mate = await spawn(teamId, "tilly", [exitWith("# Write the docs\n\n1. y\n"), { text: "done" }]);
  await awaiting(mate);
  const outside = await api.call("POST", "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: "desk-1",
    cwd: api.workspace,
    plan: "# Add a todo filter\n\n1. z\n",
  });
  expect(outside.status).toBe(201);
  const asking = await startScripted(api, [call("write", { path: "a.txt", content: "a\n" }), { text: "ok" }], {
    mode: "default",
  });
  await api.call("POST", `/api/sessions/${asking}/messages`, { text: "write it" });
  expect((await settle(api, asking)).status).toBe("awaiting_permission");
  return { ownReview, mate, outside: outside.body as { reviewId: string; sessionId: string }, asking };
}

describe("the desk", () => {
  it("lists a Plangate plan, a teammate's plan, an outside agent's plan and a permission ask, oldest first", async () => {
    const made = await fourSources();
    const { items, waiting, forYou } = await desk();
    expect(items.map((i) => [i.kind, i.agent])).toEqual([
      ["plan", "Plangate"],
      ["plan", "Teammate tilly"],
      ["plan", "Claude Code"],
      ["permission", "Plangate"],
    ]);
    expect(items[0]).toMatchObject({ id: made.ownReview, title: "Add a ping route", needs: "a reviewer", mine: true });
    expect(items[1]).toMatchObject({ sessionId: made.mate, needs: "the team lead", team: { name: "Pagination team" } });
    expect(items[2]).toMatchObject({ id: made.outside.reviewId, title: "Add a todo filter", team: null });
    expect(items[3]).toMatchObject({ sessionId: made.asking, title: "Change a.txt" });
    expect([waiting, forYou]).toEqual([4, 4]);
    expect((await desk("?agent=Claude%20Code")).items.map((i) => i.id)).toEqual([made.outside.reviewId]);
  });

  it("comes a page at a time (issue 43): the pages together are the whole desk, in its order, with the counts of all", async () => {
    await fourSources();
    const whole = await desk();
    const first = await desk("?limit=3");
    expect([first.items.length, first.waiting, first.forYou]).toEqual([3, 4, 4]);
    expect(first.next).not.toBeNull();
    const second = await desk(`?limit=3&after=${encodeURIComponent(first.next as string)}`);
    expect(second.next).toBeNull();
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual(whole.items.map((i) => i.id));
    const bad = await api.call("GET", "/api/desk?limit=0");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/limit/);
  });

  it("shows a person nothing from a workspace they have no role in (and a bad filter is a 400 that names it)", async () => {
    await fourSources();
    const stranger = await signedInCookie(api.t.db, "stranger@example.com", [{ root: "/elsewhere", role: "owner" }]);
    expect(await desk("", stranger)).toEqual({ items: [], next: null, waiting: 0, forYou: 0 });
    const viewer = await signedInCookie(api.t.db, "vic@example.com", [{ root: api.workspace, role: "viewer" }]);
    const seen = await desk("", viewer);
    // A viewer sees what waits but is needed for none of it.
    expect([seen.waiting, seen.forYou]).toEqual([4, 0]);
    expect((await desk("?mine=1", viewer)).items).toEqual([]);
    const bad = await api.call("GET", "/api/desk?mine=yes");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/mine/);
  });

  it("under a two-approval policy, a reviewer who approved is no longer needed; the other still is", async () => {
    await setPolicy({ approvals: 2 });
    const sessionId = await startScripted(api, [exitWith("# Plan\n\n1. x\n"), { text: "ok" }], { mode: "plan" });
    await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" });
    const reviewId = await awaitReview(api, sessionId);
    const [bo, cy] = [await person(), await person()];
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, bo)).status).toBe(200);
    const forBo = await desk("", bo);
    // The row names who approved, and when, and what is still open; Bo is told why it is not his.
    expect(forBo.items.map((i) => [i.id, i.mine, i.policy])).toEqual([[reviewId, false, true]]);
    expect(forBo.items[0]?.needs).toMatch(/^Approved by .+ \(\d\d:\d\d\) · Needs 1 more: a reviewer$/);
    expect(forBo.items[0]?.why).toMatch(/^You approved at \d\d:\d\d · waiting for a reviewer$/);
    expect((await desk("?mine=1", bo)).items).toEqual([]);
    expect((await desk("?mine=1", cy)).items.map((i) => i.id)).toEqual([reviewId]);
  });
  it("a page weighs its items as the whole desk does (issue 43): off the page or on it, an item counts the same; a question and each session's title are read for the page", async () => {
    await setPolicy({ approvals: 2 });
    const plans: string[] = [];
    for (const name of ["First", "Second", "Third"]) {
      const id = await startScripted(api, [exitWith(`# ${name} plan\n\n1. x\n`), { text: "ok" }], {
        mode: "plan",
        title: `${name} session`,
      });
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
      plans.push(await awaitReview(api, id));
    }
    const asking = await startScripted(
      api,
      [
        call("question", {
          questions: [{ question: "Which store?", options: [{ label: "SQLite" }, { label: "Postgres" }] }],
        }),
        { text: "ok" },
      ],
      { title: "Asking session" },
    );
    await api.call("POST", `/api/sessions/${asking}/messages`, { text: "ask" });
    expect((await settle(api, asking)).status).toBe("awaiting_review");
    const bo = await person();
    // Bo's approval of the third plan stands: it needs someone else now, on whichever page it is read.
    expect((await api.call("POST", `/api/reviews/${plans[2]}/decision`, { decision: "approve" }, bo)).status).toBe(200);
    const rows: DeskItem[] = [];
    let after: string | null = null;
    do {
      const page = await desk(`?limit=1${after ? `&after=${encodeURIComponent(after)}` : ""}`, bo);
      expect([page.waiting, page.forYou]).toEqual([4, 3]);
      rows.push(...page.items);
      after = page.next;
    } while (after);
    expect(rows.map((i) => [i.kind, i.title, i.session, i.mine])).toEqual([
      ["plan", "First plan", "First session", true],
      ["plan", "Second plan", "Second session", true],
      ["plan", "Third plan", "Third session", false],
      ["question", "Which store?", "Asking session", true],
    ]);
    const mine = await desk("?mine=1&limit=1", bo);
    expect([mine.items.map((i) => i.id), mine.forYou]).toEqual([[plans[0]], 3]);
    const rest = await desk(`?mine=1&after=${encodeURIComponent(mine.next as string)}`, bo);
    expect(rest.items.map((i) => i.title)).toEqual(["Second plan", "Which store?"]);
  });
});
