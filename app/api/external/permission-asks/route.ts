import { getDb } from "@/lib/db/client";
import { submitExternalAsk } from "@/lib/external/submit-external-ask";
import { json, parseBody, route } from "@/lib/http/route";
import { outsideFolder } from "@/lib/external/rules/outside-folder";
import { submitExternalAskBody } from "./schema";
import { authoriseAgentSession } from "@/lib/auth/authorise";
import { starterOf } from "@/lib/auth/rules/rights";
import { externalSessionId } from "@/lib/session/external-agents";

export const dynamic = "force-dynamic";

/** An outside agent's permission ask: answered by the workspace's saved rules, or put on the permission card. */
export const POST = route("submit", async (req, _ctx, actor) => {
  const body = await parseBody(req, submitExternalAskBody);
  const workspace = outsideFolder(body.cwd);
  const sessionId = externalSessionId(body.agent, body.externalSessionId, workspace, body.machine);
  await authoriseAgentSession(getDb(), actor, "submit", sessionId, workspace);
  const outcome = await submitExternalAsk(getDb(), {
    starter: starterOf(actor),
    agent: body.agent,
    externalId: body.externalSessionId,
    workspace,
    tool: body.tool,
    input: body.input,
    machine: body.machine,
  });
  return json(outcome, outcome.status === "pending" ? 201 : 200);
});
