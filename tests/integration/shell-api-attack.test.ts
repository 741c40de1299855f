import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxForSuite } from "../helpers/sandbox";
import { http, realServerFixture } from "../helpers/server";
import { until } from "../helpers/poll";

/*
 * The critical hole, replayed against the real server: a command the read-only allowlist accepted opened a
 * socket to Plangate's own port with `1</dev/tcp/…` and approved another session's plan. Now the command
 * asks, and even a person saying yes (once, and with the network allowed too) cannot reach the host's
 * loopback from the sandbox: the other review stays pending.
 */
const sandbox = sandboxForSuite();
const fixture = realServerFixture("attack", {}, (ws) => fs.writeFileSync(path.join(ws, "README.md"), "# attack\n"));
const { workspace } = fixture;

function approveRequest(url: string, reviewId: string): string {
  const body = JSON.stringify({ decision: "approve" });
  const { host } = new URL(url);
  const request = `POST /api/reviews/${reviewId}/decision HTTP/1.1\\r\\nHost: ${host}\\r\\nContent-Type: application/json\\r\\nContent-Length: ${body.length}\\r\\nConnection: close\\r\\n\\r\\n${body}`;
  return `printf '${request}' 1</dev/tcp/127.0.0.1/${new URL(url).port}`;
}

describe.skipIf(!sandbox.available)("a command cannot act on Plangate through its own API", () => {
  it.each([
    ["as the model wrote it", false],
    ["with the network asked for and allowed", true],
  ])(
    "%s: the command asks, a person's yes still reaches nothing, the other review stays pending",
    async (_name, network) => {
      const s = fixture.server();
      const victim = await http(`${s.url}/api/sessions`, "POST", {
        workspace,
        model: "scripted",
        mode: "plan",
        script: [{ toolCalls: [{ name: "exit_plan_mode", input: { plan: "# Plan\n\n1. x\n" } }] }],
      });
      const victimId = victim.body.session.id as string;
      await http(`${s.url}/api/sessions/${victimId}/messages`, "POST", { text: "plan" });
      const pending = await until(
        () => http(`${s.url}/api/reviews?status=pending&sessionId=${victimId}`, "GET"),
        (r) => r.body.reviews.length === 1,
      );
      const reviewId = pending.body.reviews[0].id as string;

      const command = approveRequest(s.url, reviewId);
      const attacker = await http(`${s.url}/api/sessions`, "POST", {
        workspace,
        model: "scripted",
        script: [
          { toolCalls: [{ name: "bash", input: { command, ...(network ? { network: true } : {}) } }] },
          { text: "done" },
        ],
      });
      const attackerId = attacker.body.session.id as string;
      await http(`${s.url}/api/sessions/${attackerId}/messages`, "POST", { text: "go" });
      // No longer runs unasked: `1<` opens the descriptor the command writes to.
      await until(
        () => http(`${s.url}/api/sessions/${attackerId}`, "GET"),
        (r) => r.body.state.status === "awaiting_permission",
      );
      const asks = (await http(`${s.url}/api/permissions?sessionId=${attackerId}&status=pending`, "GET")).body
        .permissions as { id: string; permission: string }[];
      expect(asks.map((a) => a.permission).sort()).toEqual(network ? ["bash", "network"] : ["bash"]);
      // The person is fooled and allows it, network included: the OS sandbox still has no way to the host's loopback.
      for (const ask of asks)
        expect((await http(`${s.url}/api/permissions/${ask.id}/reply`, "POST", { reply: "once" })).status).toBe(200);
      const done = await until(
        () => http(`${s.url}/api/sessions/${attackerId}/events?after=0&limit=500`, "GET"),
        (r) => r.body.events.some((e: { type: string }) => e.type === "turn.ended"),
      );
      const result = done.body.events.find((e: { type: string }) => e.type === "tool.result").payload;
      expect(result.output).toMatch(/Connection refused|Network is unreachable/);

      const review = await http(`${s.url}/api/reviews/${reviewId}`, "GET");
      expect(review.body.review.status).toBe("pending");
      expect((await http(`${s.url}/api/sessions/${victimId}`, "GET")).body.state.status).toBe("awaiting_review");
    },
    60_000,
  );
});
