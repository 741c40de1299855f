import { describe, expect, it } from "vitest";
import {
  agentLabel,
  askTitle,
  type DeskItem,
  deskCursor,
  deskOrder,
  deskPage,
  filterDesk,
  openItem,
  planTitle,
  waitedFor,
} from "./desk-view";

const item = (id: string, since: string, over: Partial<DeskItem> = {}): DeskItem => ({
  id,
  kind: "plan",
  sessionId: `ses_${id}`,
  title: id,
  session: id,
  workspace: "/w/a",
  agent: "Plangate",
  since,
  team: null,
  needs: "a reviewer",
  policy: false,
  mine: true,
  ...over,
});

describe("desk view", () => {
  it.each([
    ["# Add a login page\n\n1. x", "Add a login page"],
    ["Intro line\n## Later heading", "Later heading"],
    ["\n\nJust text", "Just text"],
    ["", "Untitled plan"],
    ["# Plan: Add a login page", "Add a login page"],
    ["# plan - paging", "paging"],
    ["# Planning the login page", "Planning the login page"],
    ["# Plan:", "Untitled plan"],
    [`# ${"x".repeat(200)}`, `${"x".repeat(119)}…`],
  ])("planTitle(%j) → %j", (md, title) => expect(planTitle(md)).toBe(title));

  it.each([
    ["bash", ["npm test"], "Run npm test"],
    ["write", ["src/a.ts", "src/b.ts", "src/c.ts"], "Change src/a.ts, src/b.ts and 1 more"],
    ["webfetch", [], "Use webfetch"],
  ])("askTitle(%s, %j) → %j", (tool, patterns, title) => expect(askTitle(tool, patterns)).toBe(title));

  it.each([
    ["claude-code", true, "Claude Code"],
    ["opencode", true, "OpenCode"],
    ["gemini", true, "Gemini CLI"],
    ["cursor", true, "cursor"],
    ["build", false, "Plangate"],
  ])("agentLabel(%s, %s) → %s", (agent, external, label) => expect(agentLabel(agent, external)).toBe(label));

  it("orders oldest first, ties by id, and never reorders between renders", () => {
    const items = [item("b", "2026-01-02"), item("c", "2026-01-01"), item("a", "2026-01-02")];
    expect(deskOrder(items).map((i) => i.id)).toEqual(["c", "a", "b"]);
    expect(deskOrder(deskOrder(items)).map((i) => i.id)).toEqual(["c", "a", "b"]);
  });

  it.each([
    [{}, ["a", "b", "c"]],
    [{ agent: "Claude Code" }, ["b"]],
    [{ workspace: "/w/b" }, ["c"]],
    [{ mine: true }, ["a", "b"]],
    [{ mine: true, workspace: "/w/b" }, []],
  ])("filter %j → %j", (filter, ids) => {
    const items = [
      item("a", "1"),
      item("b", "2", { agent: "Claude Code" }),
      item("c", "3", { workspace: "/w/b", mine: false }),
    ];
    expect(filterDesk(items, filter).map((i) => i.id)).toEqual(ids);
  });

  it("opens the item asked for while it waits, else the first (the next one after a decision)", () => {
    const items = [item("a", "1"), item("b", "2")];
    expect(openItem(items, "b")?.id).toBe("b");
    expect(openItem(items, "gone")?.id).toBe("a");
    expect(openItem(items, undefined)?.id).toBe("a");
    expect(openItem([], "a")).toBeUndefined();
  });

  it.each([
    [0, "just now"],
    [59_000, "just now"],
    [4 * 60_000, "4 min"],
    [120 * 60_000, "2 h"],
    [125 * 60_000, "2 h 5 min"],
    [25 * 3_600_000, "1 day"],
    [73 * 3_600_000, "3 days"],
    [-5000, "just now"],
  ])("waited %i ms → %s", (ms, words) => expect(waitedFor(new Date(0).toISOString(), ms)).toBe(words));
});

describe("deskPage (issue 43: every list is a page)", () => {
  const items = deskOrder(
    Array.from({ length: 7 }, (_, n) => item(`r${n}`, `2026-12-06T10:0${Math.floor(n / 2)}:00.000Z`)),
  );
  const ids = (xs: readonly DeskItem[]) => xs.map((x) => x.id);
  it.each<[string, string | undefined, number, string[], boolean]>([
    ["the first page", undefined, 3, ["r0", "r1", "r2"], true],
    ["after r2", deskCursor(items[2] as DeskItem), 3, ["r3", "r4", "r5"], true],
    ["the last page", deskCursor(items[5] as DeskItem), 3, ["r6"], false],
    ["exactly a page left", deskCursor(items[3] as DeskItem), 3, ["r4", "r5", "r6"], false],
    // A cursor is a place in the order, not a row: an item decided meanwhile still marks where its page ended.
    ["after r3's place", "2026-12-06T10:01:00.000Z|r3", 2, ["r4", "r5"], true],
  ])("%s", (_name, after, limit, want, more) => {
    const { page, next } = deskPage(items, after, limit);
    expect(ids(page)).toEqual(want);
    expect(next !== null).toBe(more);
    if (next) expect(next).toBe(deskCursor(page.at(-1) as DeskItem));
  });
});

describe("deskOrder and deskPage agree on the order", () => {
  it("pages through items of one instant whose ids differ in case: each once, none skipped", () => {
    const at = "2026-12-06T10:00:00.000Z";
    const items = deskOrder(["rev_b", "rev_B", "rev_a", "rev_A", "rev_Z", "rev_z"].map((id) => item(id, at)));
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { page, next } = deskPage(items, after, 2);
      seen.push(...page.map((i) => i.id));
      if (!next) break;
      after = next;
    }
    expect(seen).toEqual(["rev_A", "rev_B", "rev_Z", "rev_a", "rev_b", "rev_z"]);
  });
});
