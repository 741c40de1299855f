import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { submitExternalPlan } from "@/lib/external/submit-external-plan";
import { json, parseBody, route } from "@/lib/http/route";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { submitExternalPlanBody } from "./schema";
import { authoriseAgentSession } from "@/lib/auth/authorise";
import { starterOf } from "@/lib/core/people";
import { externalSessionId } from "@/lib/session/external-agents";

export const dynamic = "force-dynamic";

/** An outside agent's plan (Claude Code's hook, OpenCode's plugin) becomes a pending plan review. */
export const POST = route("submit", async (req, _ctx, actor) => {
  const body = await parseBody(req, submitExternalPlanBody);
  // The agent's folder is judged like any workspace: resolved, and inside the configured roots.
  const workspace = checkWorkspace(body.cwd, getEnv().workspaceRoots);
  const sessionId = externalSessionId(body.agent, body.externalSessionId, workspace);
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
