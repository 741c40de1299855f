import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { gradeWithVerifierModel } from "@/lib/agent/verifier-model";
import { listVerifications, verifySession } from "@/lib/verify/verify-session";

export const dynamic = "force-dynamic";

/** On demand: check the work since the latest approval against the approved plan. */
export const POST = route("chat", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "chat", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { state } = await getSession(getDb(), id);
  if (state.openTurnId) throw new AppError("turn_in_progress", "A turn is running: verify when it has finished.");
  const result = await verifySession(getDb(), id, gradeWithVerifierModel);
  // 202: the check waits for a person to allow the workspace's verify command (the ask is in `permission`).
  if ("awaitingPermission" in result) return json({ verification: null, permission: result.awaitingPermission }, 202);
  return json({ verification: result }, 201);
});

export const GET = route("read", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  await getSession(getDb(), id);
  return json({ verifications: await listVerifications(getDb(), id) });
});
