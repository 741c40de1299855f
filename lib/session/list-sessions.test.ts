import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { sql } from "../db/sql";
import { appendEvents } from "./append-events";
import { createSession } from "./create-session";
import { listSessions, snippetOf, type ListSessionsQuery, type SearchBudget } from "./list-sessions";

describe("snippetOf", () => {
  it.each([
    ["move the xylophone table", ["xylophone"], "move the \u0002xylophone\u0003 table"],
    ["Teach the Quokka to smile", ["quokka"], "Teach the \u0002Quokka\u0003 to smile"],
    [
      "a ".repeat(50) + "needle" + " b".repeat(50),
      ["needle"],
      `…${" a".repeat(30).slice(1)} \u0002needle\u0003 ${"b ".repeat(30).slice(0, -1)}…`,
    ],
    ["nothing here", ["missing"], null],
  ])("%j", (text, words, want) => {
    expect(snippetOf(text, words, 60)).toBe(want);
  });
});

// The two plans a search can take, forced, and the default that switches between them.
const BUDGETS: Record<string, SearchBudget> = {
  default: { docsPerCandidate: 32 },
  "walk only": { docsPerCandidate: 0 },
  "set only": { docsPerCandidate: Infinity },
  "walk, then set when the count proves small": { docsPerCandidate: 1 },
};
const SESSIONS = 60;
// Session i's words; activity order is shuffled against creation order (search keys), with ties.
const messages = (i: number): string[] => [
  `alpha step ${i}`,
  ...(i % 3 === 0 ? ["we paginate the list"] : i % 3 === 1 ? ["pagination is done"] : []),
  ...(i % 5 === 0 ? ["the Pager broke"] : []),
  ...(i % 4 === 0 ? ["a red apple"] : i % 4 === 1 ? ["red", "apple"] : []),
  ...(i === 11 || i === 42 ? ["zeta one", "zeta two", "zeta three", "zeta four", "a zeta quirk"] : []),
  ...(i === 7 ? ["Façade cleanup"] : []),
  ...(i === 8 ? [Array.from({ length: 40 }, (_, k) => `qz${k}`).join(" ")] : []),
];
const rank = (i: number) => (i * 37) % SESSIONS; // a permutation of 0..59
// Sessions 11 and 42 (the rare word) are the two least recently active.
const minute = (i: number) => (i === 11 ? -2 : i === 42 ? -1 : Math.floor(rank(i) / 2));

let t: TestDb;
const ids: string[] = [];

beforeAll(async () => {
  t = freshDb();
  for (let i = 0; i < SESSIONS; i++) {
    const { id } = await createSession(t.db, {
      title: `Task ${i}`,
      workspace: `/w${i % 3}`,
      agent: "build",
      model: "offline",
      mode: i % 2 ? "plan" : "default",
    });
    await appendEvents(
      t.db,
      id,
      messages(i).map((text, k) => ({ type: k % 2 ? "message.assistant" : "message.user", payload: { text } })),
    );
    ids.push(id);
  }
  const run = await sql(t.db);
  for (let i = 0; i < SESSIONS; i++) {
    const status = i % 4 === 2 ? "awaiting_review" : "idle";
    await run.execute('UPDATE "Session" SET "lastActivityAt" = ?, "status" = ? WHERE "id" = ?', [
      new Date(Date.UTC(2026, 0, 1, 0, 10 + minute(i))),
      status,
      ids[i]!,
    ]);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

/** What a listing must return: the sessions `keep` names, newest activity first (ties: greater id first). */
async function expected(keep: (i: number) => boolean): Promise<string[]> {
  const rows = await (await sql(t.db)).query<{ id: string }>(
    'SELECT "id" FROM "Session" ORDER BY "lastActivityAt" DESC, "id" DESC',
  );
  return rows.map((r) => r.id).filter((id) => keep(ids.indexOf(id)));
}

/** Every page of a listing, following nextCursor. */
async function allPages(query: ListSessionsQuery, budget: SearchBudget): Promise<{ ids: string[]; pages: number }> {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await listSessions(t.db, { ...query, cursor }, null, budget);
    seen.push(...page.sessions.map((s) => s.id));
    cursor = page.nextCursor ?? undefined;
    expect(++pages).toBeLessThan(100);
  } while (cursor);
  return { ids: seen, pages };
}

describe.each(Object.entries(BUDGETS))("search pages (%s)", (_, budget) => {
  it.each<[string, ListSessionsQuery, (i: number) => boolean]>([
    ["a word in every session", { q: "alpha" }, () => true],
    ["a rare word, in the two oldest sessions", { q: "zeta" }, (i) => i === 11 || i === 42],
    ["a prefix of three words, any case", { q: "PAG" }, (i) => i % 3 !== 2 || i % 5 === 0],
    ["two words in one document (not in two)", { q: "red apple" }, (i) => i % 4 === 0],
    ["a prefix, filtered by mode", { q: "paginat", mode: "plan" }, (i) => i % 3 !== 2 && i % 2 === 1],
    ["a word in every session, filtered by workspace", { q: "alpha", workspace: "/w1" }, (i) => i % 3 === 1],
    [
      "a word, filtered by status",
      { q: "the", status: "awaiting_review" },
      (i) => (i % 3 === 0 || i % 5 === 0) && i % 4 === 2,
    ],
    ["a word the index holds without its accent", { q: "facade" }, (i) => i === 7],
    ["a word that is not ASCII (the prefix form)", { q: "Façade" }, (i) => i === 7],
    ["a prefix of more terms than are expanded (the prefix form)", { q: "qz" }, (i) => i === 8],
  ])("%s: every match once, newest activity first, across pages", async (_name, query, keep) => {
    const want = await expected(keep);
    expect(want.length).toBeGreaterThan(0);
    for (const limit of [1, 3, 50]) {
      const got = await allPages({ ...query, limit }, budget);
      expect(got.ids).toEqual(want);
      expect(got.pages).toBe(Math.ceil(want.length / limit));
    }
  });

  it("a word that begins no indexed term finds nothing", async () => {
    expect(await listSessions(t.db, { q: "alpha nowhere" }, null, budget)).toEqual({ sessions: [], nextCursor: null });
  });

  it("marks the matched word in each result's snippet", async () => {
    const { sessions } = await listSessions(t.db, { q: "zeta" }, null, budget);
    expect(sessions.map((s) => s.snippet)).toEqual(["a \u0002zeta\u0003 quirk", "a \u0002zeta\u0003 quirk"]);
  });
});

describe("rank", () => {
  it("is given for a search on PostgreSQL only (ts_rank), and leaves the order to activity", async () => {
    const { sessions } = await listSessions(t.db, { q: "pag", limit: 200 });
    expect(sessions.map((s) => s.id)).toEqual(await expected((i) => i % 3 !== 2 || i % 5 === 0));
    for (const s of sessions) {
      if (t.provider === "postgres") expect(s.rank).toBeGreaterThan(0);
      else expect(s).not.toHaveProperty("rank");
    }
    expect((await listSessions(t.db, { limit: 5 })).sessions.every((s) => !("rank" in s))).toBe(true);
  });
});

describe("listing without a search", () => {
  it("pages every session once, newest activity first, ties broken by id", async () => {
    const want = await expected(() => true);
    expect((await allPages({ limit: 7 }, BUDGETS.default!)).ids).toEqual(want);
    expect((await allPages({ q: "!!!", limit: 7 }, BUDGETS.default!)).ids).toEqual(want);
  });
});

describe("snippets from messages", () => {
  let s: TestDb;
  const session = async (title: string, texts: string[]) => {
    const { id } = await createSession(s.db, {
      title,
      workspace: "/w",
      agent: "build",
      model: "offline",
      mode: "default",
    });
    await appendEvents(
      s.db,
      id,
      texts.map((text) => ({ type: "message.user", payload: { text } })),
    );
    return id;
  };
  beforeAll(async () => {
    s = freshDb();
  });
  afterAll(async () => {
    await s.close();
  });

  it("take `_` in a word literally, not as LIKE's any-character", async () => {
    const id = await session("Snippet one", ["fix the_list bug", "theXlist and the list"]);
    const { sessions } = await listSessions(s.db, { q: "the_list" });
    expect(sessions.find((x) => x.id === id)?.snippet).toBe("fix \u0002the_list\u0003 bug");
  });

  it("look in a message's text, not in its JSON (a key is no match)", async () => {
    const id = await session("Snippet two", ["text of the old message", "plain words"]);
    const { sessions } = await listSessions(s.db, { q: "text" });
    expect(sessions.map((x) => [x.id, x.snippet])).toEqual([[id, "\u0002text\u0003 of the old message"]]);
  });
});

describe("narrowed to the reader's workspace roots", () => {
  let s: TestDb;
  const byWorkspace = new Map<string, string>();
  const WORKSPACES = ["/srv/a", "/srv/a/app", "/srv/ab", "/srv/A", "/srv/a_b", "/srv/aXb", "/srv/b", "/srv/b/x"];
  beforeAll(async () => {
    s = freshDb();
    for (const workspace of WORKSPACES) {
      const { id } = await createSession(s.db, {
        title: `In ${workspace} needle`,
        workspace,
        agent: "build",
        model: "offline",
        mode: "default",
      });
      byWorkspace.set(id, workspace);
    }
  });
  afterAll(async () => {
    await s.close();
  });
  const listed = async (roots: readonly string[] | null, q?: string) =>
    (await listSessions(s.db, { limit: 200, ...(q ? { q } : {}) }, roots)).sessions
      .map((x) => byWorkspace.get(x.id))
      .sort();

  it.each([
    [["/srv/a"], ["/srv/a", "/srv/a/app"]],
    [["/srv/a_b"], ["/srv/a_b"]],
    [
      ["/srv/a/app", "/srv/b"],
      ["/srv/a/app", "/srv/b", "/srv/b/x"],
    ],
    [[], []],
    [null, [...WORKSPACES].sort()],
  ] as const)("roots %j list %j, in a listing and a search", async (roots, want) => {
    expect(await listed(roots)).toEqual(want);
    expect(await listed(roots, "needle")).toEqual(want);
  });
});
