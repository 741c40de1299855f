import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb, onPostgres, type TestDb } from "../../tests/helpers/db";
import { sql } from "../db/sql";
import type { SqlRunner } from "../db/sql";
import { appendEvents } from "./append-events";
import { createSession } from "./create-session";
import { deleteSession } from "./delete-session";
import { listSessions } from "./list-sessions";
import { DOCS_PER_SESSION, fewerMatches, keysMatching, searchWords, termQuery, termsWithPrefix } from "./search-index";
import {
  fewerMatchesPg,
  PG_SESSION_AMONG_MATCHES,
  quoteLexeme,
  sessionsMatchingPg,
  tsQueryText,
} from "./search-index-pg";

describe.skipIf(onPostgres)("the index, read by term", () => {
  let t: TestDb;
  let run: SqlRunner;
  const key = (k: number, n = 0) => k * DOCS_PER_SESSION + n;
  beforeAll(async () => {
    t = freshDb();
    run = await sql(t.db);
    const docs: [number, string][] = [
      [key(1), "Add pagination"],
      [key(1, 1), "the pager and the page"],
      [key(2), "Paginate them, then stop"],
      [key(40), "the façade"],
      [key(41), "nothing to see"],
      [key(90), Array.from({ length: 40 }, (_, i) => `qz${i}`).join(" ")],
    ];
    for (const [rowid, body] of docs)
      await run.execute('INSERT INTO "SessionSearch" (rowid, "body") VALUES (?, ?)', [rowid, body]);
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists the terms a prefix begins, in order, skipping each term's documents", async () => {
    expect(await termsWithPrefix(run.conn, "pag")).toEqual(["page", "pager", "paginate", "pagination"]);
    expect(await termsWithPrefix(run.conn, "the")).toEqual(["the", "them", "then"]);
    expect(await termsWithPrefix(run.conn, "fac")).toEqual(["facade"]);
    expect(await termsWithPrefix(run.conn, "zzz")).toEqual([]);
    expect(await termsWithPrefix(run.conn, "qz", 5)).toHaveLength(6);
  });

  it("expands plain words into whole terms; anything else keeps FTS5's prefix form", async () => {
    expect(await termQuery(run.conn, ["The", "PAGE"])).toEqual({
      kind: "terms",
      match: '("the" OR "them" OR "then") AND ("page" OR "pager")',
    });
    expect(await termQuery(run.conn, ["the", "nowhere"])).toEqual({ kind: "nothing" });
    expect(await termQuery(run.conn, ["façade"])).toEqual({ kind: "prefix" });
    expect(await termQuery(run.conn, ["the_list"])).toEqual({ kind: "prefix" });
    expect(await termQuery(run.conn, ["qz"])).toEqual({ kind: "prefix" });
  });

  it("finds which sessions of a list hold a match, near or far apart", async () => {
    const match = '("the" OR "them" OR "then")';
    expect([...(await keysMatching(run.conn, match, [1, 2, 3, 40, 41, 90]))].sort((a, b) => a - b)).toEqual([1, 2, 40]);
    expect([...(await keysMatching(run.conn, match, [2, 41]))]).toEqual([2]);
    expect([...(await keysMatching(run.conn, '("pagination") AND ("add")', [1, 2]))]).toEqual([1]);
    expect(await keysMatching(run.conn, match, [])).toEqual(new Set());
  });

  it("tells whether fewer documents than a cap match", async () => {
    const match = '("the")'; // two documents
    expect(await fewerMatches(run.conn, match, 3)).toBe(true);
    expect(await fewerMatches(run.conn, match, 2)).toBe(false);
    expect(await fewerMatches(run.conn, match, 0)).toBe(false);
    expect(await fewerMatches(run.conn, match, Infinity)).toBe(true);
  });
});

describe.runIf(onPostgres)("the PostgreSQL index", () => {
  let t: TestDb;
  let run: SqlRunner;
  const names = new Map<string, string>();
  const session = async (name: string, title: string, messages: string[] = []): Promise<string> => {
    const { id } = await createSession(t.db, {
      title,
      workspace: "/w",
      agent: "build",
      model: "offline",
      mode: "default",
    });
    if (messages.length)
      await appendEvents(
        t.db,
        id,
        messages.map((text) => ({ type: "message.user" as const, payload: { text } })),
      );
    names.set(id, name);
    return id;
  };
  const docsOf = async (id: string) =>
    Number(
      (await run.query<{ n: number }>('SELECT count(*) AS "n" FROM "SessionSearch" WHERE "sessionId" = ?', [id]))[0]?.n,
    );
  /** The sessions (by name) a search matches, through the SQL the listing uses. */
  const matching = async (text: string): Promise<string[]> => {
    const query = tsQueryText(searchWords(text));
    if (query === null) return [];
    const rows = await run.query<{ id: string }>(`SELECT s."id" FROM "Session" s WHERE ${PG_SESSION_AMONG_MATCHES}`, [
      query,
    ]);
    return rows.map((r) => names.get(r.id) ?? r.id).sort();
  };
  beforeAll(async () => {
    t = freshDb();
    run = await sql(t.db);
    await session("a", "Add Pagination", ["the Façade of foo.bar.com", "keep the_list short"]);
    await session("b", "Pager fix");
    await session("c", "Fruit", ["red", "apple"]);
    await session("d", "Fruit salad", ["a red apple"]);
  });
  afterAll(async () => {
    await t.close();
  });

  it("matches every word as a prefix, in any case, with or without accents, whatever the punctuation", async () => {
    expect(await matching("pag")).toEqual(["a", "b"]);
    expect(await matching("PAGINATION")).toEqual(["a"]);
    expect(await matching("facade")).toEqual(["a"]);
    expect(await matching("FAÇADE")).toEqual(["a"]);
    expect(await matching("bar")).toEqual(["a"]);
    expect(await matching("the_list")).toEqual(["a"]);
    expect(await matching("the_li")).toEqual(["a"]);
    expect(await matching("list_the")).toEqual([]);
    expect(await matching("fix pag")).toEqual(["b"]);
    expect(await matching("nowhere")).toEqual([]);
  });

  it("needs every word in one document, not spread over a session's documents", async () => {
    expect(await matching("red apple")).toEqual(["d"]);
    expect(await matching("apple")).toEqual(["c", "d"]);
    expect(await matching("fruit red")).toEqual([]);
    expect(await matching("pagination facade")).toEqual([]);
  });

  it("tells which of a list of sessions hold a match, and whether fewer documents than a cap match", async () => {
    const id = (name: string) => [...names].find(([, n]) => n === name)![0];
    const redApple = tsQueryText(["red", "apple"])!;
    const apple = tsQueryText(["apple"])!; // two documents: c's "apple" and d's "a red apple"
    expect(await sessionsMatchingPg(run.conn, redApple, [id("a"), id("c"), id("d")])).toEqual(new Set([id("d")]));
    expect(await sessionsMatchingPg(run.conn, apple, [id("b"), id("c"), id("d")])).toEqual(new Set([id("c"), id("d")]));
    expect(await sessionsMatchingPg(run.conn, apple, [id("a"), id("b")])).toEqual(new Set());
    expect(await sessionsMatchingPg(run.conn, apple, [])).toEqual(new Set());
    expect(await fewerMatchesPg(run.conn, apple, 3)).toBe(true);
    expect(await fewerMatchesPg(run.conn, apple, 2)).toBe(false);
    expect(await fewerMatchesPg(run.conn, apple, 0)).toBe(false);
    expect(await fewerMatchesPg(run.conn, apple, Infinity)).toBe(true);
  });

  it("reads nothing in a search as an operator", async () => {
    const hit = async (terms: string, query: string) =>
      (
        await run.query<{ hit: boolean }>('SELECT CAST(? AS tsvector) @@ CAST(? AS tsquery) AS "hit"', [terms, query])
      )[0]?.hit;
    // Each of these would match 'b' if its operators were read as operators.
    expect(await hit("'b':1", quoteLexeme("x | b"))).toBe(false);
    expect(await hit("'b':1", quoteLexeme("b' | 'x"))).toBe(false);
    expect(await hit("'b':1", quoteLexeme("!x"))).toBe(false);
    expect(await hit("'b':1", `${quoteLexeme("b")}:*`)).toBe(true);
    const [one] = await run.query<{ n: number }>(
      'SELECT array_length(tsvector_to_array(CAST(? AS tsvector)), 1) AS "n"',
      [`${quoteLexeme("a' 'b:1 'c")}:1`],
    );
    expect(Number(one?.n)).toBe(1);
    // Through the listing: the words are searched for, the punctuation is not.
    expect(await matching('title:x OR "y" NEAR(a b) -c *')).toEqual([]);
    expect((await listSessions(t.db, { q: 'Add: OR "pag" NEAR(x) -*' })).sessions).toEqual([]);
    expect((await listSessions(t.db, { q: "a & !red | apple:*" })).sessions.map((s) => names.get(s.id))).toEqual(["d"]);
    expect((await listSessions(t.db, { q: "(fix) | pager" })).sessions.map((s) => names.get(s.id))).toEqual(["b"]);
  });

  it("drops a deleted session's documents", async () => {
    const id = await session("doomed", "Doomed session", ["one message", "another"]);
    expect(await docsOf(id)).toBe(3);
    await deleteSession(t.db, id);
    expect(await docsOf(id)).toBe(0);
    expect(await matching("doomed")).toEqual([]);
  });

  it("ranks a session by its best document, the list staying newest first", async () => {
    await session("once", "Zebra notes", ["a zebra crossing, once, among many other words about roads and traffic"]);
    await session("often", "Stripes", ["zebra zebra zebra"]);
    const { sessions } = await listSessions(t.db, { q: "zebra" });
    expect(sessions.map((s) => names.get(s.id))).toEqual(["often", "once"]);
    const [often, once] = sessions.map((s) => s.rank ?? 0);
    expect(once).toBeGreaterThan(0);
    expect(often).toBeGreaterThan(once!);
    expect((await listSessions(t.db, { limit: 1 })).sessions[0]).not.toHaveProperty("rank");
  });

  it("indexes a message too large for one tsvector", async () => {
    const words = Array.from({ length: 30_000 }, (_, i) => `w${String(i).padStart(19, "0")}`);
    const id = await session("large", "Large", [`${words.join(" ")} needlework`]);
    expect(await docsOf(id)).toBe(4);
    expect(await matching("needle")).toEqual(["large"]);
    expect(await matching(words[0]!)).toEqual(["large"]);
  });
});
