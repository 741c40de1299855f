import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { json, parseBody, route } from "@/lib/http/route";
import { checkSessionInput } from "@/lib/agent/check-session-input";
import { readGates } from "@/lib/session/mode-gates";
import { plansDirFor } from "@/lib/plan/ensure-plan";
import { planFilePath, planSlug } from "@/lib/plan/plan-paths";
import { getSession } from "@/lib/session/get-session";
import { IMPORT_MAX_BYTES, importBody, importSession } from "@/lib/session/import-session";
import { authorise } from "@/lib/auth/authorise";
import { signerOf, starterOf } from "@/lib/auth/rules/rights";
import { AppError } from "@/lib/errors";
import { carriedBy } from "@/lib/auth/rules/mode-rights";

export const dynamic = "force-dynamic";

/** Reads a JSON export back as a new session, checked as strictly as creating one. */
export const POST = route("start", async (req, _ctx, actor) => {
  const body = await parseBody(req, importBody, IMPORT_MAX_BYTES);
  const created = body.events[0]?.type === "session.created" ? (body.events[0].payload as { script?: unknown }) : {};
  const checked = await checkSessionInput(getDb(), getEnv(), {
    workspace: body.session.workspace,
    agent: body.session.agent,
    model: body.session.model,
    ...(Array.isArray(created.script) ? { script: created.script } : {}),
  });
  authorise(actor, "start", checked.workspace);
  const importer = signerOf(actor);
  if (!importer) throw new AppError("forbidden", "An import is a person's act: sign in to import a session.");
  const plans = plansDirFor(checked.workspace).absolute;
  const { id } = await importSession(getDb(), body, {
    ...checked,
    gates: await readGates(getDb()),
    mayCarry: carriedBy(actor, checked.workspace),
    starter: starterOf(actor),
    importer,
    planPath: (slug) => planFilePath(plans, slug),
    newSlug: planSlug,
  });
  return json(await getSession(getDb(), id), 201);
});
