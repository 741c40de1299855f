import { expect } from "vitest";
import { startScripted, type Api, type Step } from "./api";
import { waitFor } from "./poll";

export type Mail = {
  id: string;
  from: string;
  to: string;
  type: string;
  requestId: string | null;
  status: string;
  payload: Record<string, unknown>;
};

/** A test's team: a lead session, its teammates and its mailbox, on whichever test server `current()` is now. */
export function teamKit(current: () => Api) {
  /** personApproval: false lets the lead's model answer (the operator, an owner, turns it off); left out it is on. */
  async function newTeam(
    leadScript: Step[] = [],
    leadMode = "default",
    opts: { personApproval?: boolean } = {},
  ): Promise<{ lead: string; teamId: string }> {
    const api = current();
    const lead = await startScripted(api, leadScript, { mode: leadMode });
    const res = await api.call("POST", "/api/teams", { sessionId: lead, name: "Pagination team", ...opts });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { lead, teamId: res.body.team.id as string };
  }
  async function spawn(teamId: string, name: string, script: Step[], requirePlanApproval = true): Promise<string> {
    const res = await current().call("POST", `/api/teams/${teamId}/teammates`, {
      name,
      task: `task for ${name}`,
      requirePlanApproval,
      script,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.sessionId as string;
  }
  const inbox = async (teamId: string, query = "") =>
    (await current().call("GET", `/api/teams/${teamId}/mailbox${query}`)).body.messages as Mail[];
  const statusOf = async (id: string) =>
    (await current().call("GET", `/api/sessions/${id}`)).body.state.status as string;
  const awaiting = (id: string) =>
    waitFor(`${id} awaiting approval`, async () => (await statusOf(id)) === "awaiting_review");
  const pendingFrom = async (teamId: string, from: string) =>
    (await inbox(teamId, "?status=pending")).find((m) => m.from === from);
  return { newTeam, spawn, inbox, statusOf, awaiting, pendingFrom };
}
