import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PLANS_DIR, planFilePath, planSlug, resolvePlansDir } from "./plan-paths";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-plans-")));
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
fs.mkdirSync(path.join(ws, "docs"), { recursive: true });
fs.mkdirSync(outside);
fs.symlinkSync(outside, path.join(ws, "escape"));
fs.symlinkSync(path.join(ws, "docs"), path.join(ws, "inner-link"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("resolvePlansDir", () => {
  it.each<[string, string | undefined, string, boolean]>([
    ["default", undefined, DEFAULT_PLANS_DIR, false],
    ["relative inside", "docs/plans", "docs/plans", false],
    ["absolute inside", path.join(ws, "docs/plans"), "docs/plans", false],
    ["dot-dot escape", "../outside", DEFAULT_PLANS_DIR, true],
    ["deep dot-dot escape", "docs/../../outside/plans", DEFAULT_PLANS_DIR, true],
    ["absolute outside", outside, DEFAULT_PLANS_DIR, true],
    ["symlink escape", "escape/plans", DEFAULT_PLANS_DIR, true],
    ["symlink that stays inside", "inner-link/plans", "docs/plans", false],
    ["the workspace root itself", ".", DEFAULT_PLANS_DIR, true],
  ])("%s", (_name, configured, relative, warned) => {
    const r = resolvePlansDir(ws, configured);
    expect(r.relative).toBe(relative);
    expect(r.absolute).toBe(path.join(ws, relative));
    expect(Boolean(r.warning)).toBe(warned);
  });
});

describe("planSlug", () => {
  it("uses the first prompt's words and two random words", () => {
    expect(planSlug("Add pagination to the REST API!", () => 0)).toBe("add-pagination-the-rest-amber-brisk-aaaaaaaa");
    expect(planSlug(null, () => 1)).toBe("brisk-delta-bbbbbbbb");
    expect(planSlug("x".repeat(300), () => 2)).toMatch(/^x{50}-cedar-fjord-cccccccc$/);
  });
  it("differs between calls with real randomness", () => {
    const seen = new Set(Array.from({ length: 20 }, () => planSlug("same prompt")));
    expect(seen.size).toBeGreaterThan(1);
  });
  it("gives subagents their own file", () => {
    expect(planFilePath("/w/p", "s")).toBe("/w/p/s.md");
    expect(planFilePath("/w/p", "s", "ses_1")).toBe("/w/p/s-agent-ses_1.md");
  });
});

describe("a planted plans folder", () => {
  it("refuses the default folder when it is a symlink leading outside", () => {
    const ws2 = path.join(root, "ws2");
    fs.mkdirSync(path.join(ws2, ".plangate"), { recursive: true });
    fs.symlinkSync(outside, path.join(ws2, ".plangate/plans"));
    expect(resolvePlansDir(ws2, undefined).unusable).toMatch(/leads outside the workspace/);
    expect(resolvePlansDir(ws, undefined).unusable).toBeUndefined();
  });
});
