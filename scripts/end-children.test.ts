import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// CI failed on a zombie esbuild left in the server's process group by the prepare step: a child the prepare step
// started outlived it. Here a process leaves a long-lived child behind as tsx's esbuild service does (unreferenced,
// so it does not keep the process alive), ends its children, and exits.
const script = `
import { spawn } from "node:child_process";
import { endChildren } from ${JSON.stringify(path.join(import.meta.dirname, "end-children.ts"))};
const child = spawn("sleep", ["60"], { stdio: "ignore" });
child.unref();
console.log(child.pid);
if (process.argv.includes("--end")) await endChildren();
`;

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

describe.skipIf(process.platform !== "linux")("endChildren", () => {
  const run = (...args: string[]) =>
    Number(
      execFileSync(process.execPath, [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
        "--",
        ...args,
      ]).toString(),
    );

  it("leaves nothing of a process's children once it exits", () => {
    const pid = run("--end");
    expect(alive(pid)).toBe(false);
  });

  it("(the same process without it leaves its child running)", () => {
    const pid = run();
    try {
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });
});
