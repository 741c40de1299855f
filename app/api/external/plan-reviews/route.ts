import { getDb } from "@/lib/db/client";
import { submitExternalPlan } from "@/lib/external/submit-external-plan";
import { json, parseBody, route } from "@/lib/http/route";
import { outsideFolder } from "@/lib/external/rules/outside-folder";
import { submitExternalPlanBody } from "./schema";
import { authoriseAgentSession } from "@/lib/auth/authorise";
import { starterOf } from "@/lib/auth/rules/rights";
import { externalSessionId } from "@/lib/session/external-agents";

export const dynamic = "force-dynamic";

/** An outside agent's plan (Claude Code's hook, OpenCode's plugin) becomes a pending plan review. */
export const POST = route("submit", async (req, _ctx, actor) => {
  const body = await parseBody(req, submitExternalPlanBody);
  // The agent's folder may be on another machine: a label, never resolved here (lib/external/rules/outside-folder).
  const workspace = outsideFolder(body.cwd);
  const sessionId = externalSessionId(body.agent, body.externalSessionId, workspace, body.machine);
  await authoriseAgentSession(getDb(), actor, "submit", sessionId, workspace);
  const submitted = await submitExternalPlan(getDb(), {
    starter: starterOf(actor),
    agent: body.agent,
    externalId: body.externalSessionId,
    workspace,
    plan: body.plan,
    planFilePath: body.planFilePath ?? `${body.agent}-plan.md`,
    machine: body.machine,
  });
  return json(submitted, 201);
});
