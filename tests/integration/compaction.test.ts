import { afterEach, describe, expect, it } from "vitest";
import { buildMessages } from "../../lib/agent/build-messages";
import { planReference } from "../../lib/plan/plan-reference";
import { foldEvents } from "../../lib/session/log/fold";
import { readEvents } from "../../lib/db/session-log/read-events";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Plan: paginate\n\n1. Add limit and cursor\n2. Test the edges\n";
const text = (m: { content: unknown }) => JSON.stringify(m.content);

describe("compaction keeps plan state", () => {
  it("auto-compacts a long plan-mode turn; plan mode, the plan reference and the pending review survive", async () => {
    api = testApi({
      files: { "README.md": `# Big\n\n${"lorem ipsum dolor sit amet ".repeat(200)}\n` },
      env: { PLANGATE_CONTEXT_CHARS: "4000" },
    });
    const id = await startScripted(
      api,
      [
        call("read", { path: "README.md" }),
        call("read", { path: "README.md", offset: 2 }),
        call("exit_plan_mode", { plan: PLAN }),
        { text: "executing" },
      ],
      {
        mode: "plan",
      },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan pagination" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const events = await readEvents(api.t.db, id);
    const compactions = events.filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThan(0);
    // The full log stays: every read is still there after the compaction that summarised it.
    expect(events.filter((e) => e.type === "tool.result" && e.payload.tool === "read")).toHaveLength(2);
    const state = foldEvents(events);
    expect(state).toMatchObject({ mode: "plan", status: "awaiting_review", plan: { active: true } });
    const { messages } = buildMessages(events, planReference(state));
    expect(text(messages[0] as { content: unknown })).toContain("Summary of the conversation so far");
    expect(text(messages[0] as { content: unknown })).toContain("plan mode is on");
    expect(text(messages[1] as { content: unknown })).toContain("Plan mode is on. Your plan file is");
    expect(text(messages[1] as { content: unknown })).toContain("Add limit and cursor");

    // A turn waiting on a review is still a turn: /compact waits for it to finish.
    expect((await api.call("POST", `/api/sessions/${id}/messages`, { text: "/compact" })).status).toBe(409);
    const [review] = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews;
    await api.call("POST", `/api/reviews/${review.id}/decision`, { decision: "approve" });
    const after = await settle(api, id);
    expect(after.status).toBe("idle");
    const final = foldEvents(after.events);
    expect(final.mode).toBe("default");
    // After approval the agreed plan is what a later summary re-injects.
    expect(planReference(final)).toMatch(/The plan agreed in this session[\s\S]*Test the edges/);
  });

  it("/compact between turns summarises, keeps the log and changes no state; a second one has nothing to do", async () => {
    api = testApi();
    const id = await startScripted(api, [call("bash", { command: "ls" }), { text: "listed" }], { mode: "default" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "list files" });
    await settle(api, id);
    const before = foldEvents(await readEvents(api.t.db, id));
    const res = await api.call("POST", `/api/sessions/${id}/messages`, { text: "/compact" });
    expect(res.status).toBe(202);
    expect(res.body.command).toEqual({ name: "compact", args: "", outcome: "committed" });
    const events = await readEvents(api.t.db, id);
    const compaction = events.at(-1);
    expect(compaction).toMatchObject({ type: "compaction", payload: { fromSeq: 1, toSeq: before.lastSeq } });
    expect(compaction?.type === "compaction" && compaction.payload.summary).toMatch(
      /list files[\s\S]*Commands run[\s\S]*ls/,
    );
    const after = foldEvents(events);
    // Only where the conversation restarts is recorded (so a restarted driver reads the log from there).
    expect(after.steps?.compactedAt).toBe(compaction?.seq);
    expect({ ...after, lastSeq: 0, steps: { ...after.steps, compactedAt: 0 } }).toEqual({ ...before, lastSeq: 0 });
    expect((await api.call("POST", `/api/sessions/${id}/messages`, { text: "/compact" })).body.command.outcome).toBe(
      "noop",
    );
  });
});
