import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withBuildLock } from "./build-lock";

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
const fresh = () => (root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-lock-")));
const lock = () => path.join(root, ".next-build.lock");

describe("build lock", () => {
  it("holds the lock folder, with its pid inside, only while fn runs", () => {
    fresh();
    const seen = withBuildLock(root, () => fs.readFileSync(path.join(lock(), "pid"), "utf8"));
    expect(seen).toBe(String(process.pid));
    expect(fs.existsSync(lock())).toBe(false);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it("takes over a lock whose owner is dead", () => {
    fresh();
    fs.mkdirSync(lock());
    fs.writeFileSync(path.join(lock(), "pid"), "2147483646");
    expect(withBuildLock(root, () => "ran")).toBe("ran");
  });

  it("takes over an old lock left without a pid (its owner was killed while taking it)", () => {
    fresh();
    fs.mkdirSync(lock());
    fs.writeFileSync(path.join(lock(), "pid"), "");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock(), old, old);
    expect(withBuildLock(root, () => "ran")).toBe("ran");
  });
});
