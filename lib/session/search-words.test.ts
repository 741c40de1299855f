// How a search's text and a session's documents become the index's words and terms, on SQLite (FTS5) and
// PostgreSQL (lexemes): plain functions (the index itself is search-index.test.ts).
import { describe, expect, it } from "vitest";
import type { NewEvent } from "./log/events";
import { ftsQuery, keySpans, searchDocs, searchWords, wholeTermsMatch } from "./search-index";
import { quoteLexeme, searchTokens, tsQueryText, tsvectorRows } from "./search-index-pg";

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
      {
        type: "session.created",
        payload: { title: "Add pagination", workspace: "/w", agent: "build", model: "offline", mode: "default" },
      },
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
    [
      [9, 1, 5, 5, 3],
      2,
      [
        [1, 5],
        [9, 9],
      ],
    ],
    [
      [100, 1, 34, 67],
      32,
      [
        [1, 1],
        [34, 34],
        [67, 67],
        [100, 100],
      ],
    ],
    [
      [100, 1, 33, 65],
      32,
      [
        [1, 65],
        [100, 100],
      ],
    ],
  ])("%j (gap %i) → %j", (keys, gap, want) => {
    expect(keySpans(keys, gap)).toEqual(want);
  });
});

// FTS5's rowid scheme and term table exist on SQLite only; PostgreSQL's index is tested below.
describe("searchTokens (PostgreSQL's lexemes)", () => {
  it.each<[string, string[]]>([
    ["Add Pagination", ["add", "pagination"]],
    ["the_list foo.bar.com /usr/bin", ["the", "list", "foo", "bar", "com", "usr", "bin"]],
    ["Façade ÉCLAIR İstanbul ｐａｇｅ", ["facade", "eclair", "istanbul", "page"]],
    ["a'b\\c & !d | e:* <-> (f)", ["a", "b", "c", "d", "e", "f"]],
    [" -- ", []],
  ])("%j → %j", (text, want) => {
    expect(searchTokens(text)).toEqual(want);
  });

  it("cuts a lexeme at 200 code points (a search is at most 200 characters)", () => {
    expect(searchTokens("ж".repeat(300))).toEqual(["ж".repeat(200)]);
  });
});

describe("tsQueryText", () => {
  it.each<[string, string | null]>([
    ["pagination", "'pagination':*"],
    ["  add   Pagination ", "'add':* & 'pagination':*"],
    ['title:x OR "y" NEAR(a b) -c *', "'title':* & 'x':* & 'or':* & 'y':* & 'near':* & 'a':* & 'b':* & 'c':*"],
    ["a & !b | c:*", "'a':* & 'b':* & 'c':*"],
    ["the_list", "('the' <-> 'list':*)"],
    ["Façade façade FACADE", "'facade':*"],
    ["___ !!!", null],
    ["", null],
  ])("%j → %j", (input, want) => {
    expect(tsQueryText(searchWords(input))).toBe(want);
  });

  it("quotes a lexeme whatever it holds", () => {
    expect(quoteLexeme("a'b\\c")).toBe("'a''b\\\\c'");
  });
});

describe("tsvectorRows", () => {
  it("gives each lexeme its positions, once", () => {
    expect(tsvectorRows("The pager, the PAGE")).toEqual(["'the':1,3 'pager':2 'page':4"]);
    expect(tsvectorRows(" -- ")).toEqual([]);
  });

  it("keeps 256 positions a lexeme and stops counting at 16383, as PostgreSQL does", () => {
    const [row] = tsvectorRows(`${"a ".repeat(20_000)}b c`);
    expect(row!.split(" ")[0]!.split(",")).toHaveLength(256);
    expect(row!.endsWith("'b':16383 'c':16383")).toBe(true);
  });

  it("spreads a document whose distinct words pass 256 KB over rows (a tsvector holds 1 MB)", () => {
    const words = Array.from({ length: 30_000 }, (_, i) => `w${String(i).padStart(19, "0")}`);
    const rows = tsvectorRows(words.join(" "));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Buffer.byteLength(row)).toBeLessThan(2 ** 20);
    expect(rows.flatMap((r) => r.split(" ").map((l) => l.slice(1, l.indexOf("'", 1))))).toEqual(words);
  });
});
