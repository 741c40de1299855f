import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { deleteSession } from "@/lib/session/delete-session";
import { deleteBody } from "./schema";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { getTeam } from "@/lib/team/get-team";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const { session, state } = await getSession(getDb(), await idFrom(ctx));
  const team = state.team ? await getTeam(getDb(), state.team.id) : null;
  return json({
    session,
    state: {
      mode: state.mode,
      prePlanMode: state.prePlanMode,
      plan: state.plan,
      status: state.status,
      pendingReview: state.pendingReview,
      pendingPermissions: state.pendingPermissions,
      pendingChecks: state.pendingChecks,
      queuedMode: state.queuedMode,
      lastSeq: state.lastSeq,
    },
    team: state.team
      ? {
          id: state.team.id,
          role: state.team.role,
          name: state.team.name,
          leadSessionId: state.team.leadSessionId,
          requirePlanApproval: state.team.requirePlanApproval,
          teammates: team?.teammates ?? [],
        }
      : null,
  });
});

export const DELETE = route("manage", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "manage", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { confirm } = await parseBody(req, deleteBody);
  if (confirm !== id) throw new AppError("bad_request", "confirm: repeat the session's id to delete it");
  return json(await deleteSession(getDb(), id));
});
