import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetEnvCache } from "../../lib/env";
import { getSession } from "../../lib/session/get-session";
import { readEvents } from "../../lib/db/session-log/read-events";
import type { SessionEvent } from "../../lib/session/log/events";
import { freshDb, type TestDb } from "./db";

import * as sessions from "../../app/api/sessions/route";
import * as session from "../../app/api/sessions/[id]/route";
import * as events from "../../app/api/sessions/[id]/events/route";
import * as messages from "../../app/api/sessions/[id]/messages/route";
import * as abort from "../../app/api/sessions/[id]/abort/route";
import * as resume from "../../app/api/sessions/[id]/resume/route";
import * as permissions from "../../app/api/permissions/route";
import * as reply from "../../app/api/permissions/[id]/reply/route";
import * as reviews from "../../app/api/reviews/route";
import * as review from "../../app/api/reviews/[id]/route";
import * as decision from "../../app/api/reviews/[id]/decision/route";
import * as mode from "../../app/api/sessions/[id]/mode/route";
import * as fork from "../../app/api/sessions/[id]/fork/route";
import * as teams from "../../app/api/teams/route";
import * as stateRoute from "../../app/api/sessions/[id]/state/route";
import * as historyRoute from "../../app/api/sessions/[id]/history/route";
import * as exportRoute from "../../app/api/sessions/[id]/export/route";
import * as importRoute from "../../app/api/sessions/import/route";
import * as verifyRoute from "../../app/api/sessions/[id]/verify/route";
import * as team from "../../app/api/teams/[id]/route";
import * as mailbox from "../../app/api/teams/[id]/mailbox/route";
import * as mailReply from "../../app/api/teams/[id]/mailbox/[messageId]/reply/route";
import * as teammates from "../../app/api/teams/[id]/teammates/route";
import * as teamMembers from "../../app/api/teams/[id]/members/route";
import * as grants from "../../app/api/grants/route";
import * as grant from "../../app/api/grants/[id]/route";
import * as workspaceTrust from "../../app/api/workspaces/trust/route";
import * as externalPlans from "../../app/api/external/plan-reviews/route";
import * as externalPlan from "../../app/api/external/plan-reviews/[id]/route";
import * as answeredElsewhere from "../../app/api/external/plan-reviews/[id]/answered-elsewhere/route";
import * as externalAsks from "../../app/api/external/permission-asks/route";
import * as externalAsk from "../../app/api/external/permission-asks/[id]/route";
import * as tokens from "../../app/api/tokens/route";
import * as tokenRoute from "../../app/api/tokens/[id]/route";
import * as deliveries from "../../app/api/webhooks/deliveries/route";
import * as invites from "../../app/api/invites/route";
import * as inviteRoute from "../../app/api/invites/[id]/route";
import * as people from "../../app/api/people/route";
import * as personRole from "../../app/api/people/[id]/role/route";
import * as deactivate from "../../app/api/people/[id]/deactivate/route";
import * as audit from "../../app/api/audit/route";
import * as teamLeads from "../../app/api/teams/[id]/leads/route";
import * as me from "../../app/api/me/route";
import * as myNotifications from "../../app/api/me/notifications/route";
import * as slackLink from "../../app/api/integrations/slack/link/route";
import * as myPush from "../../app/api/me/push/route";
import * as myPushDevice from "../../app/api/me/push/[id]/route";
import * as passkeyRoute from "../../app/api/passkeys/[id]/route";
import * as policies from "../../app/api/policies/route";
import * as policyOwners from "../../app/api/policies/owners/route";
import * as override from "../../app/api/reviews/[id]/override/route";
import * as desk from "../../app/api/desk/route";

type Handler = (req: Request, ctx: { params: Promise<{ id: string; messageId?: string }> }) => Promise<Response>;
const ROUTES: [string, RegExp, Record<string, unknown>][] = [
  ["sessions", /^\/api\/sessions$/, sessions],
  ["import", /^\/api\/sessions\/import$/, importRoute],
  ["session", /^\/api\/sessions\/([^/]+)$/, session],
  ["events", /^\/api\/sessions\/([^/]+)\/events$/, events],
  ["messages", /^\/api\/sessions\/([^/]+)\/messages$/, messages],
  ["abort", /^\/api\/sessions\/([^/]+)\/abort$/, abort],
  ["resume", /^\/api\/sessions\/([^/]+)\/resume$/, resume],
  ["permissions", /^\/api\/permissions$/, permissions],
  ["reply", /^\/api\/permissions\/([^/]+)\/reply$/, reply],
  ["reviews", /^\/api\/reviews$/, reviews],
  ["desk", /^\/api\/desk$/, desk],
  ["review", /^\/api\/reviews\/([^/]+)$/, review],
  ["decision", /^\/api\/reviews\/([^/]+)\/decision$/, decision],
  ["mode", /^\/api\/sessions\/([^/]+)\/mode$/, mode],
  ["fork", /^\/api\/sessions\/([^/]+)\/fork$/, fork],
  ["state", /^\/api\/sessions\/([^/]+)\/state$/, stateRoute],
  ["history", /^\/api\/sessions\/([^/]+)\/history$/, historyRoute],
  ["export", /^\/api\/sessions\/([^/]+)\/export$/, exportRoute],
  ["verify", /^\/api\/sessions\/([^/]+)\/verify$/, verifyRoute],
  ["teams", /^\/api\/teams$/, teams],
  ["team", /^\/api\/teams\/([^/]+)$/, team],
  ["mailbox", /^\/api\/teams\/([^/]+)\/mailbox$/, mailbox],
  ["mail reply", /^\/api\/teams\/([^/]+)\/mailbox\/([^/]+)\/reply$/, mailReply],
  ["teammates", /^\/api\/teams\/([^/]+)\/teammates$/, teammates],
  ["team-members", /^\/api\/teams\/([^/]+)\/members$/, teamMembers],
  ["external plans", /^\/api\/external\/plan-reviews$/, externalPlans],
  ["external plan", /^\/api\/external\/plan-reviews\/([^/]+)$/, externalPlan],
  ["answered elsewhere", /^\/api\/external\/plan-reviews\/([^/]+)\/answered-elsewhere$/, answeredElsewhere],
  ["external asks", /^\/api\/external\/permission-asks$/, externalAsks],
  ["external ask", /^\/api\/external\/permission-asks\/([^/]+)$/, externalAsk],
  ["grants", /^\/api\/grants$/, grants],
  ["grant", /^\/api\/grants\/([^/]+)$/, grant],
  ["workspace trust", /^\/api\/workspaces\/trust$/, workspaceTrust],
  ["tokens", /^\/api\/tokens$/, tokens],
  ["token", /^\/api\/tokens\/([^/]+)$/, tokenRoute],
  ["deliveries", /^\/api\/webhooks\/deliveries$/, deliveries],
  ["invites", /^\/api\/invites$/, invites],
  ["invite", /^\/api\/invites\/([^/]+)$/, inviteRoute],
  ["people", /^\/api\/people$/, people],
  ["person role", /^\/api\/people\/([^/]+)\/role$/, personRole],
  ["deactivate", /^\/api\/people\/([^/]+)\/deactivate$/, deactivate],
  ["audit", /^\/api\/audit$/, audit],
  ["team leads", /^\/api\/teams\/([^/]+)\/leads$/, teamLeads],
  ["me", /^\/api\/me$/, me],
  ["my notifications", /^\/api\/me\/notifications$/, myNotifications],
  ["slack link", /^\/api\/integrations\/slack\/link$/, slackLink],
  ["my push", /^\/api\/me\/push$/, myPush],
  ["my push device", /^\/api\/me\/push\/([^/]+)$/, myPushDevice],
  ["passkey", /^\/api\/passkeys\/([^/]+)$/, passkeyRoute],
  ["policies", /^\/api\/policies$/, policies],
  ["policy owners", /^\/api\/policies\/owners$/, policyOwners],
  ["override", /^\/api\/reviews\/([^/]+)\/override$/, override],
];

export type Api = {
  t: TestDb;
  workspace: string;
  /** As the operator (PLANGATE_TOKEN) unless `as` says otherwise: another bearer token, a cookie, or nobody (null). */
  call: (
    method: string,
    url: string,
    body?: unknown,
    as?: { bearer: string } | { cookie: string } | null,
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  close: () => Promise<void>;
};

/** Calls the real route handlers (parse, authorise, lib, respond) against a fresh SQLite file and workspace. */
export function testApi(opts: { files?: Record<string, string>; env?: Record<string, string> } = {}): Api {
  const t = freshDb();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ws-"));
  const workspace = path.join(root, "project");
  fs.mkdirSync(workspace);
  for (const [rel, content] of Object.entries(
    opts.files ?? { "README.md": "# Demo\n\nA todo service.\n", "src/todo.ts": "export const todos = [];\n" },
  )) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), content);
  }
  // The operator's credential every call sends unless told otherwise (a test may clear the variable later).
  const operatorToken = opts.env?.PLANGATE_TOKEN || process.env.PLANGATE_TOKEN || "plangate-test-operator-token";
  Object.assign(process.env, {
    PLANGATE_TOKEN: operatorToken,
    DATABASE_URL: t.url,
    PLANGATE_ALLOW_SCRIPTED: "1",
    PLANGATE_WORKSPACE_ROOTS: root,
    PLANGATE_DATA_DIR: root,
    ...opts.env,
  });
  resetEnvCache();
  (globalThis as { plangateDb?: unknown }).plangateDb = t.db;
  return {
    t,
    workspace: fs.realpathSync(workspace),
    async call(method, url, body, as) {
      const u = new URL(url, "http://127.0.0.1:3000");
      const match = ROUTES.map(([, re, mod]) => ({ m: re.exec(u.pathname), mod })).find((r) => r.m);
      const handler = match?.mod[method] as Handler | undefined;
      if (!match || !handler) throw new Error(`no route for ${method} ${u.pathname}`);
      const credential: Record<string, string> =
        as === null
          ? {}
          : as && "cookie" in as
            ? { cookie: as.cookie }
            : { authorization: `Bearer ${as?.bearer ?? operatorToken}` };
      const req = new Request(u, {
        method,
        headers: { "content-type": "application/json", ...credential },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const res = await handler(req, { params: Promise.resolve({ id: match.m?.[1] ?? "", messageId: match.m?.[2] }) });
      const text = await res.text();
      const isJson = (res.headers.get("content-type") ?? "").includes("json");
      return { status: res.status, body: text ? (isJson ? JSON.parse(text) : text) : null, headers: res.headers };
    },
    async close() {
      await new Promise((r) => setTimeout(r, 50));
      await t.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Waits until the session is no longer running (a turn ended or it waits on a person). */
export async function settle(
  api: Api,
  sessionId: string,
  timeoutMs = 20_000,
): Promise<{ status: string; events: SessionEvent[] }> {
  const start = Date.now();
  for (;;) {
    const { state } = await getSession(api.t.db, sessionId);
    const leased = await api.t.db.session.findUnique({ where: { id: sessionId }, select: { leaseOwner: true } });
    if (state.status !== "running" && !leased?.leaseOwner)
      return { status: state.status, events: await readEvents(api.t.db, sessionId) };
    if (Date.now() - start > timeoutMs)
      throw new Error(`session ${sessionId} still ${state.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function results(events: SessionEvent[]) {
  return events.flatMap((e) => (e.type === "tool.result" ? [e.payload] : []));
}

/** One step of a scripted model: optional text and tool calls. */
export type Step = { text?: string; toolCalls?: { name: string; input: Record<string, unknown> }[] };
export const call = (name: string, input: Record<string, unknown> = {}): Step => ({ toolCalls: [{ name, input }] });

/** Creates a scripted session in the test workspace through POST /api/sessions and returns its id. */
export async function startScripted(api: Api, script: Step[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.call("POST", "/api/sessions", {
    title: "t",
    workspace: api.workspace,
    model: "scripted",
    script,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`session not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session.id as string;
}

/** Settles the session, which must be waiting on a plan review, and returns that review's id. */
export async function awaitReview(api: Api, sessionId: string): Promise<string> {
  const { status } = await settle(api, sessionId);
  if (status !== "awaiting_review") throw new Error(`session ${sessionId} is ${status}, not awaiting_review`);
  return (await api.call("GET", `/api/reviews?status=pending&sessionId=${sessionId}`)).body.reviews[0].id as string;
}

/** A person trusts the workspace's `.plangate/config.json` as it is now (as the trust card's button does). */
export async function trustWorkspaceConfig(api: Pick<Api, "call">, workspace: string): Promise<void> {
  const shown = await api.call("GET", `/api/workspaces/trust?workspace=${encodeURIComponent(workspace)}`);
  if (shown.status !== 200) throw new Error(`reading the config's trust failed: ${JSON.stringify(shown.body)}`);
  const trusted = await api.call("POST", "/api/workspaces/trust", { workspace, hash: shown.body.hash });
  if (trusted.status !== 200 || trusted.body.trusted !== true)
    throw new Error(`trusting the config failed: ${JSON.stringify(trusted.body)}`);
}
