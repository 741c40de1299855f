import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { json, parseBody, route } from "@/lib/http/route";
import { trustOwners, trustOwnersBody } from "@/lib/review/manage-policy";
import { checkWorkspace } from "@/lib/workspace/check-workspace";

export const dynamic = "force-dynamic";

/** POST {workspace, hash}: an owner trusts the `.plangate/reviewers` content they were shown. */
export const POST = route("manage", async (req, _ctx, actor) => {
  const body = await parseBody(req, trustOwnersBody);
  const workspace = checkWorkspace(body.workspace, getEnv().workspaceRoots);
  return json(await trustOwners(getDb(), actor, workspace, body.hash));
});
