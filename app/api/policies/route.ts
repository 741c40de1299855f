import { getDb } from "@/lib/db/client";
import { json, parseBody, parseQuery, route } from "@/lib/http/route";
import { describePolicy, policyBody, policyQuery, setPolicy } from "@/lib/review/manage-policy";

export const dynamic = "force-dynamic";

/** GET ?workspace=: the review policy in force there (anyone who may read the workspace). */
export const GET = route("read", async (req, _ctx, actor) =>
  json(await describePolicy(getDb(), actor, parseQuery(req, policyQuery).workspace)),
);

/** PUT {workspace, approvals, allowSelfApproval, paths, teams}: an owner of that path sets its policy. */
export const PUT = route("manage", async (req, _ctx, actor) =>
  json(await setPolicy(getDb(), actor, await parseBody(req, policyBody))),
);
