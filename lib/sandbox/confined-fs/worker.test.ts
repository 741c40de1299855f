import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxForSuite } from "../../../tests/helpers/sandbox";
import { hostView } from "../host-view";
import { Beneath } from "./beneath";
import { FileWorkerError, withFileWorker } from "./worker-client";
import { readText } from "./read-ops";
import { listTree } from "./walk-ops";
import type { Root } from "./protocol";
import { workerBwrapArgs } from "./view-args";

/*
 * The file worker's view is enforced by the operating system, not by its code: a program run in the same view (not
 * the worker, so none of its checks apply) reaches only the roots, read-only where they are, and nothing of the
 * host beyond the system's programs. The worker itself opens every component without following a link, so a link
 * swapped in after the server resolved a path is refused even inside the view.
 */
const sandbox = sandboxForSuite();
let base: string;
let ws: string;
let outside: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-view-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(ws, "plans"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(ws, "a.txt"), "inside\n");
  fs.writeFileSync(path.join(outside, "secret.txt"), "host secret\n");
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** Runs `code` with Node.js inside the worker's view for these roots; its exit code and output. */
function inView(roots: Root[], code: string): { status: number | null; out: string } {
  const args = workerBwrapArgs({
    view: hostView(),
    workerDir: path.resolve("dist", "sandbox"),
    roots,
    hide: [],
    cwd: ws,
  });
  const r = spawnSync(sandbox.bwrapPath ?? "bwrap", [...args, "--", fs.realpathSync(process.execPath), "-e", code], {
    encoding: "utf8",
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const tryIt = (expr: string) =>
  `try { ${expr}; console.log("REACHED"); } catch (e) { console.log("REFUSED " + e.code); }`;

describe.skipIf(!sandbox.available)("the worker's view, enforced by the OS", () => {
  it("shows a read-only root read-only, whatever the code does", () => {
    const roots = [{ path: ws, write: false }];
    expect(inView(roots, tryIt(`require("fs").readFileSync(${JSON.stringify(path.join(ws, "a.txt"))})`)).out).toContain(
      "REACHED",
    );
    expect(
      inView(roots, tryIt(`require("fs").writeFileSync(${JSON.stringify(path.join(ws, "x.txt"))}, "x")`)).out,
    ).toContain("REFUSED EROFS");
    expect(fs.existsSync(path.join(ws, "x.txt"))).toBe(false);
  });

  it("shows a writable plan folder inside a read-only workspace, and only it writable", () => {
    const roots = [
      { path: ws, write: false },
      { path: path.join(ws, "plans"), write: true },
    ];
    const planned = path.join(ws, "plans", "p.md");
    expect(inView(roots, tryIt(`require("fs").writeFileSync(${JSON.stringify(planned)}, "plan")`)).out).toContain(
      "REACHED",
    );
    expect(fs.readFileSync(planned, "utf8")).toBe("plan");
    expect(
      inView(roots, tryIt(`require("fs").writeFileSync(${JSON.stringify(path.join(ws, "y.txt"))}, "x")`)).out,
    ).toContain("REFUSED EROFS");
  });

  it.each([
    ["a sibling folder", () => path.join(outside, "secret.txt")],
    ["the host's shadow file", () => "/etc/shadow"],
    ["the host's passwd (no /etc at all)", () => "/etc/passwd"],
    ["the server's home", () => path.join(os.homedir(), ".bashrc")],
    ["through /proc/self/root", () => `/proc/self/root${path.join(outside, "secret.txt")}`],
    ["through /proc/1/root", () => `/proc/1/root${path.join(outside, "secret.txt")}`],
  ])("does not contain %s", (_label, target) => {
    const roots = [{ path: ws, write: true }];
    expect(inView(roots, tryIt(`require("fs").readFileSync(${JSON.stringify(target())})`)).out).toMatch(
      /REFUSED (ENOENT|EACCES)/,
    );
  });
});

describe("the worker itself", () => {
  const ask = <T>(roots: Root[], fn: Parameters<typeof withFileWorker<T>>[1]) =>
    withFileWorker({ key: null, roots, cwd: ws, sandbox }, fn);

  it("refuses a path beneath none of its roots, and `..` cannot climb out", async () => {
    const roots = [{ path: ws, write: true }];
    for (const p of [path.join(outside, "secret.txt"), `${ws}/../outside/secret.txt`]) {
      const err = await ask(roots, (files) => files({ op: "readText", path: p, maxBytes: 100 })).catch((e) => e);
      expect(err).toBeInstanceOf(FileWorkerError);
      expect((err as FileWorkerError).code).toBe("OUTSIDE");
    }
  });

  it("never opens through a link, wherever in the path it was swapped in", async () => {
    const roots = [{ path: ws, write: true }];
    fs.mkdirSync(path.join(ws, "real"), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, "swapped"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(ws, "leaf"));
    for (const p of [path.join(ws, "swapped", "secret.txt"), path.join(ws, "leaf")]) {
      const read = await ask(roots, (files) => files({ op: "readText", path: p, maxBytes: 100 })).catch((e) => e);
      expect((read as FileWorkerError).code).toBe("ELOOP");
      const wrote = await ask(roots, (files) => files({ op: "writeText", path: p, content: "pwned" })).catch((e) => e);
      expect((wrote as FileWorkerError).code).toBe("ELOOP");
    }
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("host secret\n");
  });

  it("refuses a write under a read-only root before the OS has to", async () => {
    const err = await ask([{ path: ws, write: false }], (files) =>
      files({ op: "writeText", path: path.join(ws, "z.txt"), content: "z" }),
    ).catch((e) => e);
    expect((err as FileWorkerError).code).toBe("READONLY");
    expect(fs.existsSync(path.join(ws, "z.txt"))).toBe(false);
  });

  it("never shows a server file inside a root, whatever the view", () => {
    fs.writeFileSync(path.join(ws, "plangate.db"), "DB");
    const b = new Beneath({ roots: [{ path: ws, write: true }], hidden: [path.join(ws, "plangate.db")] });
    expect(() => readText(b, path.join(ws, "plangate.db"), 100)).toThrow(/does not exist/);
    expect(listTree(b, ws, 100).entries.map((e) => e.relative)).not.toContain("plangate.db");
    expect(listTree(b, ws, 100).entries.map((e) => e.relative)).toContain("a.txt");
  });
});
