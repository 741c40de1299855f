import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { submitExternalAsk } from "@/lib/external/submit-external-ask";
import { json, parseBody, route } from "@/lib/http/route";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { submitExternalAskBody } from "./schema";

export const dynamic = "force-dynamic";

/** An outside agent's permission ask: answered by the workspace's saved rules, or put on the permission card. */
export const POST = route("submit", async (req) => {
  const body = await parseBody(req, submitExternalAskBody);
  const workspace = checkWorkspace(body.cwd, getEnv().workspaceRoots);
  const outcome = await submitExternalAsk(getDb(), {
    agent: body.agent,
    externalId: body.externalSessionId,
    workspace,
    tool: body.tool,
    input: body.input,
  });
  return json(outcome, outcome.status === "pending" ? 201 : 200);
});
