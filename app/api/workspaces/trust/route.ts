import { authorise, signerFor } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { json, parseBody, parseQuery, route } from "@/lib/http/route";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { describeConfigTrust, revokeConfigTrust, trustConfig } from "@/lib/workspace/trust-config";
import { trustBody, trustQuery } from "./schema";

export const dynamic = "force-dynamic";

/** GET ?workspace=: what the workspace's config would widen, and whether a person trusted this content. */
export const GET = route("read", async (req, _ctx, actor) => {
  const workspace = checkWorkspace(parseQuery(req, trustQuery).workspace, getEnv().workspaceRoots);
  authorise(actor, "read", workspace);
  return json(await describeConfigTrust(getDb(), workspace));
});

/** POST {workspace, hash}: a person trusts the content they were shown. */
export const POST = route("manage", async (req, _ctx, actor) => {
  const body = await parseBody(req, trustBody);
  const workspace = checkWorkspace(body.workspace, getEnv().workspaceRoots);
  return json(await trustConfig(getDb(), workspace, body.hash, signerFor(actor, "manage", workspace)));
});

/** DELETE ?workspace=: trust taken back. */
export const DELETE = route("manage", async (req, _ctx, actor) => {
  const workspace = checkWorkspace(parseQuery(req, trustQuery).workspace, getEnv().workspaceRoots);
  return json(await revokeConfigTrust(getDb(), workspace, signerFor(actor, "manage", workspace)));
});
