import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { json, parseBody, parseQuery, route } from "@/lib/http/route";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { describeConfigTrust, revokeConfigTrust, trustConfig } from "@/lib/workspace/trust-config";
import { trustBody, trustQuery } from "./schema";

export const dynamic = "force-dynamic";

/** GET ?workspace=: what the workspace's config would widen, and whether a person trusted this content. */
export const GET = route("read", async (req) => {
  const { workspace } = parseQuery(req, trustQuery);
  return json(await describeConfigTrust(getDb(), checkWorkspace(workspace, getEnv().workspaceRoots)));
});

/** POST {workspace, hash}: a person trusts the content they were shown. */
export const POST = route("manage", async (req) => {
  const body = await parseBody(req, trustBody);
  return json(await trustConfig(getDb(), checkWorkspace(body.workspace, getEnv().workspaceRoots), body.hash, "person"));
});

/** DELETE ?workspace=: trust taken back. */
export const DELETE = route("manage", async (req) => {
  const { workspace } = parseQuery(req, trustQuery);
  return json(await revokeConfigTrust(getDb(), checkWorkspace(workspace, getEnv().workspaceRoots)));
});
