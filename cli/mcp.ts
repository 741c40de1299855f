// `plangate mcp [--url URL]`: a Model Context Protocol server over stdio (the official SDK) for any agent that
// speaks MCP (Cursor, Cline, Windsurf, Continue, …): its plans go to Plangate's desk and come back with a person's
// decision. A client may time out a long tool call, so a plan is submitted at once and its decision waited for in
// bounded calls that can be repeated (with progress notifications when the client sends a progress token).
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { type Outcome, submitPlan } from "./await-review";
import { callServer, DEFAULT_URL } from "./client";
import { options, UsageError } from "./options";

const USAGE = "usage: plangate mcp [--url URL] (an MCP server on stdio; see plangate connect mcp)";
const OPTIONS = { url: { type: "string" }, help: { type: "boolean" } } as const;
const MAX_WAIT = 50;

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
};
const text = (s: string, structured: Record<string, unknown>) => ({
  content: [{ type: "text" as const, text: s }],
  structuredContent: structured,
});

/** Long-polls `route` (…?wait=N) until it is decided or `seconds` pass, telling the client it is still waiting. */
async function poll<T extends { status: string }>(
  url: string,
  route: string,
  seconds: number,
  extra: Extra,
): Promise<T | null> {
  const end = Date.now() + seconds * 1000;
  let last: T | null = null;
  for (let round = 1; Date.now() < end && !extra.signal.aborted; round++) {
    const token = extra._meta?.progressToken;
    // Said before each round's request, never just before the answer (which could overtake it on the way).
    if (token !== undefined)
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: round, message: "Waiting for a person on Plangate's desk" },
      });
    const wait = Math.max(0, Math.min(5, Math.floor((end - Date.now()) / 1000)));
    const reply = await callServer(url, "GET", `${route}?wait=${wait}`, undefined, extra.signal).catch(() => null);
    if (reply && reply.status !== 200)
      throw new Error(`Plangate answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    last = (reply?.body as T | undefined) ?? last;
    if (last && last.status !== "pending") return last;
    // At most a round a second, however soon the server answered.
    await new Promise((r) => setTimeout(r, Math.min(1_000, Math.max(0, end - Date.now()))));
  }
  return last;
}

export function planServer(url: string): McpServer {
  const server = new McpServer({ name: "plangate", version: "1.0.0" });
  // The agent's sessions on the desk: a revision (revises: reviewId) is the next version of the same plan.
  const sessionOf = new Map<string, string>();
  let lastSession: string | null = null;
  const cwdOf = (cwd: string | undefined) => path.resolve(cwd ?? process.cwd());

  server.registerTool(
    "submit_plan",
    {
      title: "Submit a plan for review",
      description:
        "Puts your plan (Markdown) on Plangate's review desk, where a person approves it, sends it back with feedback, or sets it aside. Returns at once with a reviewId: then call wait_for_review. To send a revision after feedback, pass revises: the reviewId of the plan it replaces.",
      inputSchema: {
        plan: z.string().min(1).max(200_000).describe("The plan, in Markdown"),
        cwd: z.string().max(4096).optional().describe("The project folder (default: where this server runs)"),
        revises: z.string().max(100).optional().describe("The reviewId of the plan this one revises"),
      },
    },
    async ({ plan, cwd, revises }) => {
      if (revises !== undefined && !sessionOf.has(revises))
        return {
          ...text(`revises: ${revises} is not a plan this server submitted`, { error: "unknown revises" }),
          isError: true,
        };
      const externalSessionId = revises !== undefined ? (sessionOf.get(revises) as string) : `mcp-${randomUUID()}`;
      const submitted = await submitPlan(url, {
        agent: "mcp",
        externalSessionId,
        cwd: cwdOf(cwd),
        machine: os.hostname(),
        plan,
      });
      if (!("reviewId" in submitted)) {
        const why = "unreachable" in submitted ? submitted.unreachable : submitted.refused;
        return { ...text(`${why}. The plan is not approved.`, { status: "not_submitted", error: why }), isError: true };
      }
      sessionOf.set(submitted.reviewId, externalSessionId);
      lastSession = externalSessionId;
      return text(
        `Plan sent for review: ${url}/desk?item=${submitted.reviewId}. Call wait_for_review with reviewId ${submitted.reviewId}; do not act on the plan before it is approved.`,
        { reviewId: submitted.reviewId, status: "pending", url: `${url}/desk?item=${submitted.reviewId}` },
      );
    },
  );

  server.registerTool(
    "wait_for_review",
    {
      title: "Wait for a person's decision on a plan",
      description: `Waits up to waitSeconds (at most ${MAX_WAIT}) for the decision on a plan you submitted. status "pending": call it again. "approved": go on with the plan it returns (it may have been edited) and the reviewer's notes. "rejected": keep planning with the feedback and comments, then submit_plan with revises. "abandoned": stop and wait for the person.`,
      inputSchema: {
        reviewId: z.string().min(1).max(100),
        waitSeconds: z.number().int().min(1).max(MAX_WAIT).optional(),
      },
    },
    async ({ reviewId, waitSeconds }, extra) => {
      const outcome = await poll<Outcome>(url, `/api/external/plan-reviews/${reviewId}`, waitSeconds ?? 45, extra);
      if (!outcome || outcome.status === "pending")
        return text("No decision yet: call wait_for_review again.", { reviewId, status: "pending" });
      const structured = {
        reviewId,
        status: outcome.status,
        plan: outcome.plan,
        edited: outcome.edited,
        message: outcome.message,
      };
      const head =
        outcome.status === "approved"
          ? "Approved on Plangate."
          : outcome.status === "rejected"
            ? "Sent back on Plangate: keep planning, then submit_plan with revises."
            : "Set aside on Plangate: stop and wait for the person.";
      return text(`${head}\n\n${outcome.message ?? ""}`.trim(), structured);
    },
  );

  server.registerTool(
    "request_permission",
    {
      title: "Ask before a command or an edit",
      description:
        "Asks Plangate whether you may run a shell command or change a file (it runs without Plangate's sandbox, so a person's rules or a person decide). Returns allow, deny, or pending with a requestId for wait_for_permission.",
      inputSchema: {
        command: z.string().min(1).max(10_000).optional().describe("The shell command"),
        path: z.string().min(1).max(4096).optional().describe("The file to write or edit"),
        cwd: z.string().max(4096).optional(),
      },
    },
    async ({ command, path: file, cwd }) => {
      if ((command === undefined) === (file === undefined))
        return { ...text("Give exactly one of command or path.", { error: "command or path" }), isError: true };
      lastSession ??= `mcp-${randomUUID()}`;
      const reply = await callServer(url, "POST", "/api/external/permission-asks", {
        agent: "mcp",
        externalSessionId: lastSession,
        cwd: cwdOf(cwd),
        machine: os.hostname(),
        ...(command !== undefined
          ? { tool: "Bash", input: { command } }
          : { tool: "Edit", input: { file_path: file } }),
      }).catch((e: unknown) => ({ status: 0, body: String(e) }));
      if (reply.status !== 200 && reply.status !== 201)
        return {
          ...text(`Plangate did not take the ask (${reply.status}): not allowed.`, { status: "deny" }),
          isError: true,
        };
      const body = reply.body as { requestId: string | null; status: string; message: string | null };
      return text(
        body.status === "pending"
          ? `Waiting for a person: call wait_for_permission with requestId ${body.requestId}.`
          : `${body.status}${body.message ? `: ${body.message}` : ""}`,
        body,
      );
    },
  );

  server.registerTool(
    "wait_for_permission",
    {
      title: "Wait for a person's answer to an ask",
      description: `Waits up to waitSeconds (at most ${MAX_WAIT}) for the answer to request_permission. "once"/"always"/"allow": go ahead; "reject"/"deny": do not, and read the message.`,
      inputSchema: {
        requestId: z.string().min(1).max(100),
        waitSeconds: z.number().int().min(1).max(MAX_WAIT).optional(),
      },
    },
    async ({ requestId, waitSeconds }, extra) => {
      const r = await poll<{ status: string; message: string | null }>(
        url,
        `/api/external/permission-asks/${requestId}`,
        waitSeconds ?? 45,
        extra,
      );
      const status = r?.status ?? "pending";
      return text(
        status === "pending"
          ? "No answer yet: call wait_for_permission again."
          : `${status}${r?.message ? `: ${r.message}` : ""}`,
        { requestId, status, message: r?.message ?? null },
      );
    },
  );
  return server;
}

export async function run(args: string[]): Promise<number> {
  let opts: ReturnType<typeof options<typeof OPTIONS>>;
  try {
    opts = options(args, OPTIONS);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`plangate: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  await planServer(opts.url ?? DEFAULT_URL).connect(new StdioServerTransport());
  // Serves until the client closes stdin.
  await new Promise<void>((resolve) => process.stdin.once("close", resolve));
  return 0;
}
