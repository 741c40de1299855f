import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { canonical, redactUrl, TABLES, toValue } from "./copy-values";

describe("copy-database values", () => {
  it("reads every timestamp form SQLite may hold as the same UTC instant", () => {
    const at = "2026-01-02T03:04:05.678Z";
    expect(toValue("timestamp", "2026-01-02T03:04:05.678+00:00", "t")).toEqual(new Date(at));
    expect(toValue("timestamp", Date.parse(at), "t")).toEqual(new Date(at));
    expect(toValue("timestamp", "2026-01-02 03:04:05", "t")).toEqual(new Date("2026-01-02T03:04:05Z"));
    expect(() => toValue("timestamp", "yesterday", "Session s1.createdAt")).toThrow(
      /Session s1.createdAt: "yesterday" is not a valid timestamp/,
    );
  });

  it("keeps text as it is and checks booleans and integers", () => {
    const json = '{"b": 1,  "a": "é\\u0000"}';
    expect(toValue("text", json, "t")).toBe(json);
    expect([toValue("boolean", 1, "t"), toValue("boolean", 0, "t"), toValue("boolean", true, "t")]).toEqual([
      true,
      false,
      true,
    ]);
    expect(toValue("integer", "42", "t")).toBe(42);
    expect(toValue("text", null, "t")).toBeNull();
    expect(() => toValue("boolean", 2, "t")).toThrow(/not a valid boolean/);
    expect(() => toValue("integer", 1.5, "t")).toThrow(/not a valid integer/);
    expect(() => toValue("text", 7, "t")).toThrow(/not a valid text/);
  });

  it("compares states whatever their key order; names every model of the schema once, parents first", () => {
    expect(canonical({ b: [{ y: 1, x: 2 }], a: null })).toBe(canonical({ a: null, b: [{ x: 2, y: 1 }] }));
    expect(canonical([1, 2])).not.toBe(canonical([2, 1]));
    const names = TABLES.map((t) => t.name);
    const schema = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
    expect([...names].sort()).toEqual([...schema.matchAll(/^model (\w+)/gm)].map((m) => m[1]).sort());
    expect(names.indexOf("Team")).toBeLessThan(names.indexOf("Session"));
    expect(names.indexOf("Plan")).toBeLessThan(names.indexOf("Review"));
    expect(redactUrl("postgresql://u:secret@h:5432/db")).toBe("postgresql://h:5432/db");
  });
});
