// `plangate hook droid --url URL [--deadline SECONDS]`: what Factory Droid runs as a PreToolUse hook for
// ExitSpecMode (and, with --asks, for its shell and write tools), and as a PostToolUse hook for ExitSpecMode. It puts
// the spec on Plangate's desk and answers with the person's decision. Droid lets a tool run when its hook fails,
// prints nothing or times out, so every path here ends in an explicit answer, before Droid's timeout.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  DROID_PLAN_TOOL,
  droidAllow,
  droidAsk,
  droidContext,
  droidDeny,
  droidHookInput,
  type DroidHookInput,
  droidNothing,
  plantedPlanHooks,
} from "../lib/external/droid-hook";
import { approvedNotes, rememberApproved } from "./approved-notes";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

const USAGE =
  "usage: plangate hook droid [--url URL] [--deadline SECONDS] (run by Factory Droid; see plangate connect droid)";
const MAX_PLAN = 200_000;

/** A project file's JSON (read without following a link, size-limited); undefined when absent or unreadable. */
function projectJson(file: string): unknown {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      return fs.fstatSync(fd).size > 1024 * 1024
        ? { PreToolUse: [{ hooks: [{}] }] }
        : JSON.parse(fs.readFileSync(fd, "utf8"));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Whether the project (the folder Droid runs in, or one above it) hooks ExitSpecMode itself. */
function projectHooksPlan(cwd: string): string | null {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const factory = path.join(dir, ".factory");
    const files = {
      hooksJson: projectJson(path.join(factory, "hooks.json")),
      settingsJson: projectJson(path.join(factory, "settings.json")),
    };
    // The user's own folder holds the user's hooks (Plangate's among them), not a project's.
    if (dir !== os.homedir() && plantedPlanHooks(files)) return factory;
    if (path.dirname(dir) === dir) return null;
  }
}

async function reviewPlan(url: string, input: DroidHookInput, deadline: number): Promise<object> {
  const planted = projectHooksPlan(input.cwd);
  if (planted)
    return droidDeny(
      `Plangate: ${planted} hooks ExitSpecMode itself, and Droid would take its answer over the review's; remove that hook to have plans reviewed.`,
    );
  const plan = input.tool_input.plan;
  if (typeof plan !== "string" || plan.trim() === "")
    return droidDeny("Plangate: ExitSpecMode carried no plan: call it again with the whole plan in markdown.");
  if (plan.length > MAX_PLAN) return droidDeny(`Plangate: the plan is longer than ${MAX_PLAN} characters.`);
  const title = typeof input.tool_input.title === "string" ? input.tool_input.title.trim() : "";
  const submitted = await submitPlan(url, {
    agent: "droid",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    // The title Droid gives the spec heads the plan when the plan does not start with a heading of its own.
    plan: title && !/^\s*#/.test(plan) ? `# ${title}\n\n${plan}` : plan,
  });
  // Droid's own dialog shows only in its terminal and a headless run approves by itself: never fall back to either.
  if ("unreachable" in submitted) return droidDeny(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return droidDeny(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return droidDeny(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call ExitSpecMode to ask again.`,
    );
  if ("gone" in outcome) return droidDeny(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status !== "approved")
    return droidDeny(
      (outcome.message ?? "The plan was not approved on Plangate: keep planning.").replaceAll(
        "exit_plan_mode",
        DROID_PLAN_TOOL,
      ),
    );
  rememberApproved("droid", input.session_id, submitted.reviewId);
  return droidAllow();
}

async function reviewAsk(url: string, input: DroidHookInput, deadline: number): Promise<object> {
  const ask = droidAsk(input.tool_name, input.tool_input);
  if (!ask) return droidDeny(`Plangate could not read this ${input.tool_name} call; it is not allowed.`);
  const reply = await askAndWait(
    url,
    { agent: "droid", externalSessionId: input.session_id, cwd: input.cwd, machine: os.hostname(), ...ask },
    deadline,
  );
  if (reply === null)
    return droidDeny(`Plangate (${url}) gave no answer for this ${input.tool_name} call: not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return droidAllow();
  return droidDeny(reply.message ?? "A person refused this call on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => droidDeny(`Plangate's hook was set up wrongly (${why}): run plangate connect droid again.`),
    async handle(raw, url, deadline) {
      const parsed = droidHookInput.safeParse(raw);
      if (!parsed.success)
        return droidDeny("Plangate's hook could not read what Droid sent it; the call is not allowed.");
      const input = parsed.data;
      // A project never connected to Plangate goes on as if no hook ran (an empty answer is Droid's "no opinion").
      if (!isConnected("droid", input.cwd)) return droidNothing();
      if (input.hook_event_name === "PostToolUse") {
        if (input.tool_name !== DROID_PLAN_TOOL) return droidNothing();
        const outcome = await approvedNotes(url, "droid", input.session_id);
        return outcome?.message
          ? droidContext(outcome.message.replaceAll("exit_plan_mode", DROID_PLAN_TOOL))
          : droidNothing();
      }
      return input.tool_name === DROID_PLAN_TOOL ? reviewPlan(url, input, deadline) : reviewAsk(url, input, deadline);
    },
    // After the tool ran there is nothing left to refuse: the notes are lost, the approval stands.
    failed: (raw, why) =>
      (raw as { hook_event_name?: unknown } | undefined)?.hook_event_name === "PostToolUse"
        ? droidNothing()
        : droidDeny(`Plangate's hook failed (${why}); not allowed.`),
  });
}
