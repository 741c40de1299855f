import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { sql } from "../db/client";
import type { SqlRunner } from "../db/sql";
import type { NewEvent } from "./events";
import { DOCS_PER_SESSION, fewerMatches, ftsQuery, keySpans, keysMatching, searchDocs, searchWords, termQuery, termsWithPrefix, wholeTermsMatch } from "./search-index";

describe("ftsQuery", () => {
  it.each<[string, string | null]>([
    ["pagination", '"pagination"*'],
    ["  add   Pagination ", '"add"* "Pagination"*'],
    ['title:x OR "y" NEAR(a b) -c *', '"title"* "x"* "OR"* "y"* "NEAR"* "a"* "b"* "c"*'],
    ["ünïcode façade", '"ünïcode"* "façade"*'],
    ["!!! ---", null],
    ["", null],
  ])("%j → %j", (input, want) => {
    expect(ftsQuery(input)).toBe(want);
  });

  it("keeps at most 12 words", () => {
    expect(ftsQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))?.split(" ")).toHaveLength(12);
  });
});

describe("searchDocs", () => {
  it("indexes the title, user and assistant text, and nothing else", () => {
    const events: NewEvent[] = [
      { type: "session.created", payload: { title: "Add pagination", workspace: "/w", agent: "build", model: "offline", mode: "default" } },
      { type: "message.user", payload: { text: "please page the list" } },
      { type: "message.assistant", payload: { text: "  " } },
      { type: "message.assistant", payload: { text: "Done." } },
      { type: "tool.called", payload: { callId: "c", tool: "read", input: { path: "secret" } } },
      { type: "notice", payload: { level: "info", text: "not indexed" } },
    ];
    expect(searchDocs(events)).toEqual([
      { kind: "title", body: "Add pagination" },
      { kind: "message", body: "please page the list" },
      { kind: "message", body: "Done." },
    ]);
  });
});

describe("searchWords", () => {
  it("splits on anything but letters, digits and underscores, NFKC first, at most 12", () => {
    expect(searchWords("  ｐａｇｅ, the_list! façade ")).toEqual(["page", "the_list", "façade"]);
    expect(searchWords(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))).toHaveLength(12);
  });
});

describe("wholeTermsMatch", () => {
  it("ANDs the words, ORs each word's terms, and quotes every term", () => {
    expect(wholeTermsMatch([["the"], ["page", "pager"], ['a"b']])).toBe('("the") AND ("page" OR "pager") AND ("a""b")');
  });
});

describe("keySpans", () => {
  it.each<[number[], number, [number, number][]]>([
    [[], 32, []],
    [[5], 32, [[5, 5]]],
    [[9, 1, 5, 5, 3], 2, [[1, 5], [9, 9]]],
    [[100, 1, 34, 67], 32, [[1, 1], [34, 34], [67, 67], [100, 100]]],
    [[100, 1, 33, 65], 32, [[1, 65], [100, 100]]],
  ])("%j (gap %i) → %j", (keys, gap, want) => {
    expect(keySpans(keys, gap)).toEqual(want);
  });
});

describe("the index, read by term", () => {
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
    for (const [rowid, body] of docs) await run.execute('INSERT INTO "SessionSearch" (rowid, "body") VALUES (?, ?)', [rowid, body]);
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists the terms a prefix begins, in order, skipping each term's documents", async () => {
    expect(await termsWithPrefix(run, "pag")).toEqual(["page", "pager", "paginate", "pagination"]);
    expect(await termsWithPrefix(run, "the")).toEqual(["the", "them", "then"]);
    expect(await termsWithPrefix(run, "fac")).toEqual(["facade"]);
    expect(await termsWithPrefix(run, "zzz")).toEqual([]);
    expect(await termsWithPrefix(run, "qz", 5)).toHaveLength(6);
  });

  it("expands plain words into whole terms; anything else keeps FTS5's prefix form", async () => {
    expect(await termQuery(run, ["The", "PAGE"])).toEqual({ kind: "terms", match: '("the" OR "them" OR "then") AND ("page" OR "pager")' });
    expect(await termQuery(run, ["the", "nowhere"])).toEqual({ kind: "nothing" });
    expect(await termQuery(run, ["façade"])).toEqual({ kind: "prefix" });
    expect(await termQuery(run, ["the_list"])).toEqual({ kind: "prefix" });
    expect(await termQuery(run, ["qz"])).toEqual({ kind: "prefix" });
  });

  it("finds which sessions of a list hold a match, near or far apart", async () => {
    const match = '("the" OR "them" OR "then")';
    expect([...(await keysMatching(run, match, [1, 2, 3, 40, 41, 90]))].sort((a, b) => a - b)).toEqual([1, 2, 40]);
    expect([...(await keysMatching(run, match, [2, 41]))]).toEqual([2]);
    expect([...(await keysMatching(run, '("pagination") AND ("add")', [1, 2]))]).toEqual([1]);
    expect(await keysMatching(run, match, [])).toEqual(new Set());
  });

  it("tells whether fewer documents than a cap match", async () => {
    const match = '("the")'; // two documents
    expect(await fewerMatches(run, match, 3)).toBe(true);
    expect(await fewerMatches(run, match, 2)).toBe(false);
    expect(await fewerMatches(run, match, 0)).toBe(false);
    expect(await fewerMatches(run, match, Infinity)).toBe(true);
  });
});
