// A Slack-shaped Web API for the notification suites (issue 46): the methods Plangate calls, answered as Slack
// answers them (HTTP 200 with {ok, …}, form-encoded requests, Bearer auth), and an interactivity sender that signs
// its requests with Slack's scheme. A test awaits calls as they arrive, never a fixed time.
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { slackSignature } from "../../lib/notify/rules/slack-wire";
import { whenEmitted } from "./poll";

export type SlackCall = { method: string; args: Record<string, unknown> };

export type FakeSlack = {
  /** The API's base, as PLANGATE_SLACK_API_URL. */
  url: string;
  calls: SlackCall[];
  of(method: string): SlackCall[];
  /** Each Slack user's email, as users.info tells it (the app's users:read.email scope). */
  emails: Map<string, string>;
  waitFor(method: string, count: number, timeoutMs?: number): Promise<SlackCall[]>;
  close(): Promise<void>;
};

function parseArgs(raw: string, type: string): Record<string, unknown> {
  if (type.includes("json")) return JSON.parse(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // Slack's form encoding carries nested values (blocks, a view) as JSON text.
    try {
      out[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
    } catch {
      out[k] = v;
    }
  }
  return out;
}

export async function startFakeSlack(token: string): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const emails = new Map<string, string>();
  const events = new EventEmitter();
  let ts = 1_700_000_000;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c.toString("utf8");
    });
    req.on("end", () => {
      const method = (req.url ?? "").replace(/^\/api\//, "").split("?")[0] ?? "";
      const reply = (body: Record<string, unknown>) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return reply({ ok: false, error: "invalid_auth" });
      const args = parseArgs(raw, req.headers["content-type"] ?? "");
      calls.push({ method, args });
      events.emit("call");
      if (method === "chat.postMessage") {
        if (!args.channel) return reply({ ok: false, error: "channel_not_found" });
        ts += 1;
        return reply({ ok: true, channel: args.channel, ts: `${ts}.000100`, message: { text: args.text } });
      }
      if (method === "users.info") {
        const id = String(args.user ?? "");
        if (!/^U[A-Z0-9]+$/.test(id)) return reply({ ok: false, error: "user_not_found" });
        const email = emails.get(id);
        return reply({ ok: true, user: { id, profile: email ? { email } : {} } });
      }
      if (method === "chat.update") return reply({ ok: true, channel: args.channel, ts: args.ts, text: args.text });
      if (method === "chat.postEphemeral") return reply({ ok: true, message_ts: `${ts}.000200` });
      if (method === "views.open") {
        const view = args.view as { type?: string } | undefined;
        if (!args.trigger_id || view?.type !== "modal") return reply({ ok: false, error: "invalid_arguments" });
        return reply({ ok: true, view: { id: "V0DIALOG" } });
      }
      return reply({ ok: false, error: "unknown_method" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const of = (method: string) => calls.filter((c) => c.method === method);
  return {
    url: `http://127.0.0.1:${port}/api`,
    calls,
    of,
    emails,
    waitFor: (method, count, timeoutMs = 15_000) =>
      whenEmitted(
        events,
        "call",
        () => of(method).length >= count,
        () => of(method),
        () => `${count} ${method}, got ${of(method).length}`,
        timeoutMs,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request as Slack's interactivity sends it: form field `payload`, signed with the app's secret at `at`. */
export function slackInteraction(
  secret: string,
  payload: unknown,
  opts: { at?: number; signature?: string } = {},
): Request {
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const at = String(opts.at ?? Math.floor(Date.now() / 1000));
  return new Request("http://127.0.0.1:3000/api/integrations/slack/interactions", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": at,
      "x-slack-signature": opts.signature ?? slackSignature(secret, at, body),
    },
    body,
  });
}

let pressed = 0;

/** A button press on a Plangate message by a Slack user (each press is new bytes: its action_ts differs). */
export function press(user: string, action: "plangate-approve" | "plangate-changes", reviewId: string) {
  pressed += 1;
  return {
    type: "block_actions",
    user: { id: user, team_id: "T0TEAM" },
    team: { id: "T0TEAM" },
    trigger_id: `trig-${user}-${reviewId}`,
    channel: { id: "C0PLANS" },
    actions: [{ action_id: action, value: reviewId, type: "button", action_ts: `${Date.now() / 1000}.${pressed}` }],
  };
}

/** The "Request changes" dialog, submitted with this feedback. */
export function submitChanges(user: string, reviewId: string, feedback: string) {
  return {
    type: "view_submission",
    user: { id: user, team_id: "T0TEAM" },
    team: { id: "T0TEAM" },
    view: {
      callback_id: "plangate-changes",
      private_metadata: reviewId,
      state: { values: { feedback: { text: { type: "plain_text_input", value: feedback } } } },
    },
  };
}
