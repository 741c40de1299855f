import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseUntrustedJson, readUntrustedFile } from "./read-untrusted-file";

// Each case plants something where a workspace file is expected, then checks what the one reader makes of it:
// read, missing, or refused with a reason that names the file and never holds the content.
const SECRET = "sk-live-reader-secret";
let root = "";
let ws = "";
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-reader-")));
  ws = path.join(root, "ws");
  fs.mkdirSync(path.join(ws, "cfg"), { recursive: true });
  fs.writeFileSync(path.join(ws, "cfg", "real.json"), '{"a":1}');
  fs.writeFileSync(path.join(root, "secret"), SECRET);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const at = (rel: string) => path.join(ws, rel);
const read = (rel = "f", opts = {}) => readUntrustedFile(ws, rel, opts);

describe("readUntrustedFile", () => {
  it.each([
    ["a regular file", () => fs.writeFileSync(at("f"), "hello"), "hello"],
    ["a link to a file inside", () => fs.symlinkSync("cfg/real.json", at("f")), '{"a":1}'],
    [
      "a link to a link inside",
      () => (fs.symlinkSync("cfg", at("c")), fs.symlinkSync("c/real.json", at("f"))),
      '{"a":1}',
    ],
  ])("reads %s", (_l, plant, text) => {
    plant();
    const got = read();
    expect(got.status).toBe("ok");
    if (got.status === "ok") expect(got.bytes.toString()).toBe(text);
  });

  it.each([
    [
      "a link to a file outside",
      () => fs.symlinkSync(path.join(root, "secret"), at("f")),
      /^f is a symbolic link leading outside the workspace$/,
    ],
    ["a relative link up and out", () => fs.symlinkSync("../secret", at("f")), /leading outside/],
    [
      "a link inside that links out",
      () => (fs.symlinkSync("../../secret", at("cfg/out")), fs.symlinkSync("cfg/out", at("f"))),
      /leading outside/,
    ],
    [
      "a folder link out",
      () => fs.symlinkSync(root, at("up")),
      /reached through a symbolic link leading outside/,
      "up/secret",
    ],
    ["/dev/zero", () => fs.symlinkSync("/dev/zero", at("f")), /leading outside/],
    ["a dangling link", () => fs.symlinkSync("nowhere", at("f")), /symbolic link to nothing/],
    ["a link loop", () => (fs.symlinkSync("g", at("f")), fs.symlinkSync("f", at("g"))), /loops/],
    ["a FIFO", () => execFileSync("mkfifo", [at("f")]), /^f is not a regular file \(a FIFO\)$/],
    ["a folder", () => fs.mkdirSync(at("f")), /not a regular file \(a folder\)/],
    ["a hard link", () => fs.linkSync(path.join(root, "secret"), at("f")), /more than one name/],
    ["a file over the limit", () => fs.writeFileSync(at("f"), "x".repeat(257 * 1024)), /^f is larger than 256 KiB$/],
    ["a path up and out", () => undefined, /not inside the workspace/, "../secret"],
    ["an absolute path", () => undefined, /not inside the workspace/, "/etc/passwd"],
  ])("refuses %s", (_l, plant, reason, rel = "f") => {
    plant();
    const got = read(rel);
    expect(got).toMatchObject({ status: "refused", reason: expect.stringMatching(reason) });
    expect(JSON.stringify(got)).not.toContain("sk-live");
  });

  it("with links never, refuses even a link inside, and a file behind a linked folder", () => {
    fs.symlinkSync("cfg/real.json", at("f"));
    expect(read("f", { links: "never" })).toMatchObject({
      status: "refused",
      reason: "f is a link; it is not read through it",
    });
    fs.symlinkSync("cfg", at("c"));
    expect(read("c/real.json", { links: "never" })).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/through a symbolic link \(c\)/),
    });
  });

  it("a missing file (or a missing folder, or a file where a folder should be) is missing, not refused", () => {
    expect(read("nothing")).toEqual({ status: "missing" });
    expect(read("no/such/file")).toEqual({ status: "missing" });
    fs.writeFileSync(at("plain"), "x");
    expect(read("plain/inside")).toEqual({ status: "missing" });
  });

  it("cuts at the limit when asked, and reads no more than limit + 1 bytes", () => {
    fs.writeFileSync(at("f"), "abcdefghij");
    expect(read("f", { limit: 4, truncate: true })).toMatchObject({ status: "ok", truncated: true, size: 10 });
    const cut = read("f", { limit: 4, truncate: true });
    if (cut.status === "ok") expect(cut.bytes.toString()).toBe("abcd");
    expect(read("f", { limit: 4 })).toMatchObject({ status: "refused", reason: "f is larger than 4 bytes" });
    expect(read("f", { limit: 10 })).toMatchObject({ status: "ok", truncated: false });
  });
});

describe("parseUntrustedJson", () => {
  it.each([
    [`{"token": ${SECRET}}`, /^x is not valid JSON at line 1 column 11 \(InvalidSymbol\)$/],
    [`${SECRET}`, /^x is not valid JSON at line 1 column 1/],
    [`{\n  "a": 1,\n  "b": ${SECRET}\n}`, /at line 3 column 8/],
    [`{"a": 1} ${SECRET}`, /at line 1 column 10 \(InvalidSymbol\)/],
    ["", /not valid JSON/],
  ])("names the position of %j and never quotes it", (text, reason) => {
    const got = parseUntrustedJson(text, "x");
    expect(got).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    expect(JSON.stringify(got)).not.toContain("sk-live");
  });

  it("parses what JSON.parse parses, the same way", () => {
    expect(parseUntrustedJson('{"__proto__": {"x": 1}, "a": [1, 2]}', "x")).toEqual({
      ok: true,
      value: JSON.parse('{"__proto__": {"x": 1}, "a": [1, 2]}'),
    });
  });
});
