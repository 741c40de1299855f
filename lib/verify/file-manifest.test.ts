import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor } from "../../tests/helpers/poll";
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
      "a file swapped for a link, same size and time",
      m({ a: [6, 10, "h"] }),
      m({ a: [6, 10, null] }),
      [["a", "modified"]],
    ],
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
    [
      "a file named as an object's property is added",
      m({}),
      // Built from JSON: an object literal's "constructor" key is typed as the prototype's.
      m(JSON.parse('{"constructor":[1,1,"h"]}') as Manifest["files"]),
      [["constructor", "added"]],
    ],
  ])("%s", (_, before, after, want) => {
    expect(diffManifests(before, after).map((c) => [c.path, c.status])).toEqual(want);
  });

  it("a damaged stored manifest reads as none, not as an empty workspace", () => {
    expect(parseManifest("{")).toBeNull();
    expect(parseManifest('{"files":null,"truncated":false}')).toBeNull();
    expect(parseManifest(null)).toBeNull();
    expect(parseManifest('{"files":{},"truncated":false}')).toEqual(m({}));
    // Stored before reuse (no taking time), or with a damaged one: still a baseline, with nothing to reuse.
    expect(parseManifest('{"files":{},"truncated":false,"takenAt":"x"}')).toEqual(m({}));
    expect(parseManifest('{"files":{},"truncated":false,"takenAt":5}')).toEqual({ ...m({}), takenAt: 5 });
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

  it("a file named __proto__ is an entry like any other, and is seen added", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-manifest-"));
    const before = await takeManifest(dir);
    fs.writeFileSync(path.join(dir, "__proto__"), "p");
    const after = parseManifest(JSON.stringify(await takeManifest(dir)));
    expect(after && Object.keys(after.files)).toEqual(["__proto__"]);
    expect(after && diffManifests(before, after).map((c) => [c.path, c.status])).toEqual([["__proto__", "added"]]);
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

// Issue 43: a manifest taken with an earlier one at hand reads only what may have changed.
describe("takeManifest reusing an earlier manifest", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const OLD = new Date("2001-01-01T00:00:00Z");
  const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
  const at = (f: string) => path.join(dir, f);
  /** A file with a time long before any manifest of the test: its hash may be reused. */
  const oldFile = (f: string, text: string) => {
    fs.writeFileSync(at(f), text);
    fs.utimesSync(at(f), OLD, OLD);
  };
  /**
   * An earlier manifest as a walk started a second after the files' last change records it (same entries: nothing
   * changed meanwhile); a walk started right away would trust none of them (racy clean).
   */
  const setUp = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-manifest-"));
    oldFile("a.txt", "alpha\n");
    oldFile("b.txt", "bravo\n");
    const walked = await takeManifest(dir);
    expect(walked.takenAt).toBeLessThanOrEqual(Date.now());
    expect(walked.files["a.txt"]?.[2]).toBe(sha1("alpha\n"));
    return { ...walked, takenAt: Math.ceil(fs.statSync(at("b.txt")).ctimeMs / 1000) * 1000 + 1000 };
  };

  it("reuses an unchanged file's hash without opening it", async () => {
    const earlier = await setUp();
    const opened: string[] = [];
    const open = fs.promises.open;
    const spy = vi.spyOn(fs.promises, "open").mockImplementation((file, ...rest) => {
      opened.push(path.basename(String(file)));
      return open(file, ...rest);
    });
    try {
      const reused = await takeManifest(dir, undefined, [], earlier);
      expect(reused.files["a.txt"]).toEqual(earlier.files["a.txt"]);
      expect(diffManifests(earlier, reused)).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(opened).toEqual([]);
  });

  // The attack: an agent's command rewrites a file at the same size and puts its old time back (`touch -d`). The
  // kernel set the file's change time to now, so the hash is not reused: the edit is seen.
  it("content rewritten at the same size with its old time put back is read again and seen", async () => {
    const earlier = await setUp();
    oldFile("a.txt", "ALPHA\n");
    expect(fs.statSync(at("a.txt")).mtimeMs).toBe(OLD.getTime());
    const now = await takeManifest(dir, undefined, [], earlier);
    expect(now.files["a.txt"]?.[2]).toBe(sha1("ALPHA\n"));
    expect(diffManifests(earlier, now).map((c) => [c.path, c.status])).toEqual([["a.txt", "modified"]]);
    expect(now.files["b.txt"]).toEqual(earlier.files["b.txt"]);
  });

  // The same attack on a file too large to hash: its change time tells the rewrite.
  it("a large file rewritten at the same size with its old time put back is seen", async () => {
    const earlier = await setUp();
    const big = (c: string) => c.repeat(100 * 1024);
    oldFile("big.bin", big("a"));
    const before = await takeManifest(dir, undefined, [], earlier);
    expect(before.files["big.bin"]?.[2]).toBeNull();
    // The change time is what shows this rewrite, and the kernel stamps it from a coarse clock (a few ms a tick):
    // the person's rewrite comes after the file's clock has moved on, so this one waits for that too.
    const first = fs.statSync(at("big.bin")).ctimeMs;
    const tick = `${dir}.tick`;
    await waitFor("the file system's clock to move past the first write", () => {
      fs.writeFileSync(tick, "");
      return fs.statSync(tick).ctimeMs > first;
    });
    fs.rmSync(tick);
    oldFile("big.bin", big("b"));
    const after = await takeManifest(dir, undefined, [], before);
    expect(after.files["big.bin"]?.slice(0, 3)).toEqual(before.files["big.bin"]?.slice(0, 3));
    expect(diffManifests(before, after).map((c) => [c.path, c.status])).toEqual([["big.bin", "modified"]]);
  });

  it.each([
    ["at", 0],
    ["after", 1500],
  ])("a same-size edit with a time %s the earlier walk's start is read again (racy clean)", async (_, afterMs) => {
    const earlier = await setUp();
    const when = new Date((earlier.takenAt as number) + afterMs);
    fs.writeFileSync(at("a.txt"), "ALPHA\n");
    fs.utimesSync(at("a.txt"), when, when);
    // The earlier manifest as it would be had the file been walked at that time with its old content.
    const st = fs.statSync(at("a.txt"));
    const racy: Manifest = {
      ...earlier,
      files: { ...earlier.files, "a.txt": [6, when.getTime(), sha1("alpha\n"), Math.floor(st.ctimeMs), st.ino] },
    };
    const now = await takeManifest(dir, undefined, [], racy);
    expect(now.files["a.txt"]?.slice(0, 3)).toEqual([6, when.getTime(), sha1("ALPHA\n")]);
    expect(diffManifests(racy, now).map((c) => [c.path, c.status])).toEqual([["a.txt", "modified"]]);
    expect(now.files["b.txt"]).toEqual(earlier.files["b.txt"]);
  });

  it("a file swapped for a link of the same size and time is recorded as the link, not followed", async () => {
    const earlier = await setUp();
    fs.writeFileSync(at("secret"), "outside\n");
    fs.rmSync(at("a.txt"));
    // The link's size is its target's length: 6 bytes, as a.txt was.
    fs.symlinkSync("secret", at("a.txt"));
    fs.lutimesSync(at("a.txt"), OLD, OLD);
    expect(fs.lstatSync(at("a.txt")).size).toBe(6);
    const now = await takeManifest(dir, undefined, [], earlier);
    expect(now.files["a.txt"]).toEqual([6, OLD.getTime(), null]);
    expect(diffManifests(earlier, now).map((c) => [c.path, c.status])).toEqual([
      ["a.txt", "modified"],
      ["secret", "added"],
    ]);
  });

  it("an earlier manifest stored without a taking time reuses nothing", async () => {
    const earlier = await setUp();
    const { takenAt: _, ...stored } = earlier;
    const old = parseManifest(JSON.stringify(stored));
    expect(old?.takenAt).toBeUndefined();
    oldFile("a.txt", "ALPHA\n");
    const now = await takeManifest(dir, undefined, [], old);
    expect(now.files["a.txt"]?.[2]).toBe(sha1("ALPHA\n"));
    expect(diffManifests(earlier, now).map((c) => [c.path, c.status])).toEqual([["a.txt", "modified"]]);
  });
});
