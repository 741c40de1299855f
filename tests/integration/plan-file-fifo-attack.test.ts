import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { sandboxForSuite } from "../helpers/sandbox";
import { waitFor } from "../helpers/poll";

/*
 * Adversary, issue 41 class 5 ("every file Plangate itself reads from a workspace goes through one reader: regular
 * files only, never through a link that leaves the workspace, at most 256 KiB"). enter_plan_mode still reads the
 * session's plan file with fs.readFileSync, in the server's process: it follows links, opens FIFOs (blocking), and
 * has no size limit. The plans folder is the workspace config's `plansDirectory`, which applies untrusted; the
 * agent (auto mode: its commands are answered) turns its plan file into a FIFO, then enters plan mode again: the
 * server's event loop stops until something writes to the FIFO — every session, page and API call with it. (A link
 * to /dev/zero instead grows the server until it dies.)
 *
 * The test bounds the stall: a helper process writes to the FIFO after 3 s. The promise is that it never stalls.
 */
const sandbox = sandboxForSuite();
let api: Api;
let writer: ReturnType<typeof spawn> | null = null;
afterEach(async () => {
  writer?.kill();
  await api?.close();
});

describe("the plan file is read as untrusted", () => {
  it.skipIf(!sandbox.available)("a FIFO at the plan path does not stop the server", async () => {
    api = testApi({
      env: { PLANGATE_AUTO_GATE: "open" },
      files: {
        "README.md": "# demo\n",
        ".plangate/config.json": JSON.stringify({ plansDirectory: "docs/plans" }),
      },
    });
    const id = await startScripted(
      api,
      [
        call("enter_plan_mode"),
        exitWith("# Plan\n\n1. Nothing much.\n"),
        // Back in auto mode: the plan file, whatever its random name, becomes a FIFO.
        call("bash", { command: 'for f in docs/plans/*.md; do rm -f "$f" && mkfifo "$f"; done; ls -l docs/plans' }),
        call("enter_plan_mode"),
        { text: "done" },
      ],
      { mode: "auto" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan then go" });
    const reviewId = await awaitReview(api, id);
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" })).status).toBe(200);
    const plans = path.join(api.workspace, "docs/plans");
    const fifo = await waitFor(
      "the FIFO",
      async () => {
        const name = fs.existsSync(plans) ? fs.readdirSync(plans).find((n) => n.endsWith(".md")) : undefined;
        return name && fs.lstatSync(path.join(plans, name)).isFIFO() ? path.join(plans, name) : undefined;
      },
      20_000,
    );
    // Something opens the FIFO's other end after 3 s, so a blocked server comes back (in a separate process).
    writer = spawn("sh", ["-c", `sleep 3; echo unblocked > '${fifo}'`], { stdio: "ignore" });
    // The event loop's longest stall while the session goes on.
    let last = Date.now();
    let worst = 0;
    const tick = setInterval(() => {
      const now = Date.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 20);
    try {
      await settle(api, id, 20_000);
    } finally {
      clearInterval(tick);
    }
    expect(worst, "the server's event loop stalled (ms)").toBeLessThan(1000);
  });
});
