import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diffManifests, type Manifest, parseManifest, takeManifest } from "./file-manifest";

const m = (files: Manifest["files"], truncated = false): Manifest => ({ files, truncated });

describe("diffManifests", () => {
  it.each([
    ["same entry", m({ a: [1, 10, "h"] }), m({ a: [1, 10, "h"] }), []],
    ["touched, same content (hash)", m({ a: [1, 10, "h"] }), m({ a: [1, 99, "h"] }), []],
    ["same size and time, other content", m({ a: [1, 10, "h"] }), m({ a: [1, 10, "g"] }), [["a", "modified"]]],
    ["other size", m({ a: [1, 10, null] }), m({ a: [2, 10, null] }), [["a", "modified"]]],
    ["large file, new time", m({ a: [9, 10, null] }), m({ a: [9, 11, null] }), [["a", "modified"]]],
    [
      "added and deleted",
      m({ a: [1, 1, "h"] }),
      m({ b: [1, 1, "h"] }),
      [
        ["a", "deleted"],
        ["b", "added"],
      ],
    ],
    ["nothing is deleted past a cap", m({ a: [1, 1, "h"] }, true), m({}), []],
  ])("%s", (_, before, after, want) => {
    expect(diffManifests(before, after).map((c) => [c.path, c.status])).toEqual(want);
  });

  it("a damaged stored manifest reads as none, not as an empty workspace", () => {
    expect(parseManifest("{")).toBeNull();
    expect(parseManifest('{"files":null,"truncated":false}')).toBeNull();
    expect(parseManifest(null)).toBeNull();
    expect(parseManifest('{"files":{},"truncated":false}')).toEqual(m({}));
  });
});

describe("takeManifest (a real folder)", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("lists files with small files hashed, skips dependency folders, never follows a link or blocks on a FIFO", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-manifest-"));
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src/a.ts"), "export const a = 1;\n");
    fs.mkdirSync(path.join(dir, "node_modules/x"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules/x/index.js"), "x");
    fs.symlinkSync("/etc", path.join(dir, "etc-link"));
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const got = await takeManifest(dir);
    expect(Object.keys(got.files).sort()).toEqual(["etc-link", "src/a.ts"]);
    expect(got.files["src/a.ts"]?.[2]).toMatch(/^[0-9a-f]{40}$/);
    expect(got.files["etc-link"]?.[2]).toBeNull();
    expect(got.truncated).toBe(false);
    const capped = await takeManifest(dir, { maxFiles: 1, hashBelow: 10 });
    expect(capped).toMatchObject({ truncated: true });
    expect(Object.values(capped.files).map((e) => e[2])).toEqual([null]);
  });

  // Issue 43: every session's plan file stays under .plangate/plans; walking them made an approval's cost grow with
  // the workspace's history. That folder and a data folder inside the workspace are not in the manifest.
  it("skips the workspace's .plangate/plans and a data folder inside it, whatever they hold", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-manifest-"));
    for (const f of [
      ".plangate/plans/one.md",
      ".plangate/config.json",
      "data/plangate.db",
      "docs/.plangate/x.md",
      "a.ts",
    ]) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), "x");
    }
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(dir, `.plangate/plans/p${i}.md`), `# plan ${i}`);
    const got = await takeManifest(dir, undefined, [path.join(dir, "data")]);
    // .plangate's config is work like any other: a change to it is seen.
    expect(Object.keys(got.files).sort()).toEqual([".plangate/config.json", "a.ts", "docs/.plangate/x.md"]);
  });
});
