import { may } from "@/lib/auth/rules/rights";
import { choosableModes } from "@/lib/auth/rules/mode-rights";
import { pageActor } from "@/lib/http/page-actor";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getSession } from "@/lib/session/get-session";
import { isExternalModel } from "@/lib/session/external-agents";
import { agentLabel } from "@/lib/desk/views/desk-view";
import { readEvents } from "@/lib/db/session-log/read-events";
import type { SessionEvent } from "@/lib/session/log/events";
import { planDetails, reviewPosition } from "@/lib/review/read-review";
import { readGates } from "@/lib/session/mode-gates";
import { listRequests } from "@/lib/session/permission-store";
import { listGrants } from "@/lib/session/grant-store";
import { SavedPermissions } from "@/components/saved-permissions";
import { listReviews } from "@/lib/review/read-review";
import { StatusBadge } from "@/components/status-badge";
import { SessionTimeline } from "@/components/session-timeline";
import { TIMELINE_PAGE, timelineItems } from "@/lib/session/timeline-items";
import { PlanMarkdown } from "@/components/plan-markdown";
import { PlanDecision } from "@/components/plan-decision";
import { JoinTeamButton } from "@/components/join-team-button";
import { findWorkspaceTeam } from "@/lib/db/teams/teams";
import { PolicyApprovalCard } from "@/components/policy-approval-card";
import { PermissionCard } from "@/components/permission-card";
import { QuestionCard, type QuestionView } from "@/components/question-card";
import { Composer } from "@/components/composer";
import { LiveRefresh } from "@/components/live-refresh";
import { ModeChip } from "@/components/mode-chip";
import { SandboxBanner } from "@/components/sandbox-banner";
import { SessionHistory } from "@/components/session-history";
import { SessionTools } from "@/components/session-tools";
import { NotifyOptIn } from "@/components/notify-opt-in";
import { sessionHistory } from "@/lib/session/session-history";
import { listVerifications, type VerificationView } from "@/lib/verify/verify-session";
import { VerificationReport } from "@/components/verification-report";
import { DecidedElsewhere } from "@/components/decided-elsewhere";
import { RetryBanner } from "@/components/retry-banner";
import { UsageLine } from "@/components/usage-line";
import { ConfigTrustCard } from "@/components/config-trust-card";
import { describeConfigTrust } from "@/lib/workspace/trust-config";
import type { Metadata } from "next";

// The page lists the latest mode switches and permission replies; a long session reads no more than a short one.
const HISTORY_ROWS = 100;

export const dynamic = "force-dynamic";

/**
 * The tab's title counts the decisions waiting on a person ("(1) Plan awaiting review · Plangate"), so a
 * waiting review shows in a background tab; it is part of every live refresh.
 */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const found = await getSession(getDb(), (await params).id).catch(() => null);
  if (!found) return { title: "Plangate" };
  const { state, session } = found;
  const count = (state.pendingReview ? 1 : 0) + state.pendingPermissions.length + state.pendingChecks.length;
  if (count === 0) return { title: `${session.title} · Plangate` };
  const what =
    state.pendingReview?.kind === "plan-review"
      ? "Plan awaiting review"
      : state.pendingReview
        ? "Question waiting"
        : "Waiting for permission";
  return { title: `(${count}) ${what} · Plangate` };
}

/** When the open turn started (for the working indicator's elapsed time). */
function turnStart(events: SessionEvent[], turnId: string | null): string | null {
  if (!turnId) return null;
  const started = events.findLast((e) => e.type === "turn.started" && e.payload.turnId === turnId);
  return started?.at ?? null;
}

/** Whether the session's last turn stopped on an error (after its last retry): Resume then reads Retry. */
function stoppedOnError(events: SessionEvent[]): boolean {
  const last = events.findLast((e) => e.type === "turn.ended" || e.type === "turn.interrupted");
  return last?.type === "turn.ended" && last.payload.reason === "error";
}

/** The latest answered review on the page (another tab's decision is shown where its card was). */
function lastAnswered(events: SessionEvent[]): { reviewId: string; decision: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === "review.asked") return null;
    if (e?.type === "review.answered") return { reviewId: e.payload.reviewId, decision: e.payload.decision };
  }
  return null;
}

/**
 * Messages of the first page rendered here: the browser then hydrates HTML instead of parsing Markdown. Each
 * plan version's entry carries the plan as it was submitted (and decided), readable after the decision.
 */
function renderMessages(
  events: SessionEvent[],
  verifications: VerificationView[],
  plans: { version: number; content: string }[],
): Record<number, React.ReactNode> {
  const out: Record<number, React.ReactNode> = {};
  const byId = new Map(verifications.map((v) => [v.id, v]));
  // History lists plan versions newest first; where two plans share a version number, the newest plan's is shown.
  const byVersion = new Map(plans.toReversed().map((p) => [p.version, p.content]));
  // The same items the timeline shows, so what is rendered here is exactly what it will look up.
  for (const item of timelineItems(events)) {
    if (item.kind === "user" || item.kind === "assistant")
      out[item.seq] = <PlanMarkdown markdown={item.text} testId="message-markdown" />;
    const v = item.kind === "verification" ? byId.get(item.verificationId) : undefined;
    if (v) out[item.seq] = <VerificationReport verification={v} />;
    const plan = item.kind === "plan" && item.planVersion !== undefined ? byVersion.get(item.planVersion) : undefined;
    if (plan !== undefined) out[item.seq] = <PlanMarkdown markdown={plan} testId="plan-version-markdown" />;
  }
  return out;
}

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor();
  const { id } = await params;
  const db = getDb();
  const found = await getSession(db, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "session_not_found") return null;
    throw error;
  });
  // A session outside every workspace this person has a role in is, for them, not there.
  if (!found || !may(actor, "read", found.session.workspace)) notFound();
  const { session, state } = found;
  // Claude Code or OpenCode: its turns run in its own terminal, so there is no mode to switch or message to send here.
  const outside = isExternalModel(session.model);
  const pending = state.pendingReview;
  const onDesk = pending?.kind === "plan-review" && !state.team?.requirePlanApproval;
  const [events, review, policy, question, gates, asks, history, verifications, grants, trust] = await Promise.all([
    readEvents(db, id, { after: Math.max(0, state.lastSeq - TIMELINE_PAGE) }),
    onDesk ? planDetails(db, pending.id) : null,
    pending?.kind === "plan-review"
      ? listReviews(db, { id: pending.id }).then(([r]) => (r ? reviewPosition(db, r, actor) : null))
      : null,
    pending && pending.kind !== "plan-review" ? listReviews(db, { id: pending.id }).then(([r]) => r ?? null) : null,
    readGates(db),
    state.pendingPermissions.length + state.pendingChecks.length > 0
      ? listRequests(db, { sessionId: id, status: "pending" })
      : [],
    // Plan versions are the heaviest rows (their text and a side-by-side diff each): the latest page, the rest by API.
    sessionHistory(db, id, { recent: HISTORY_ROWS }),
    listVerifications(db, id),
    listGrants(db, { sessionId: id, workspace: session.workspace }),
    // An outside agent's folder is only a label here: its config is never read (nor does it answer its asks).
    outside ? null : describeConfigTrust(db, session.workspace),
  ]);
  const answered = pending ? null : lastAnswered(events);
  const choosable = choosableModes(actor, session.workspace, gates);
  // An outside agent joins a team only when a person chooses to: offered when a team's lead works in its folder.
  const teamHere = outside && !state.team ? await findWorkspaceTeam(db, session.workspace) : undefined;
  return (
    <section aria-labelledby="session-title" className="flex flex-col gap-4">
      <SandboxBanner />
      <header className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="session-title" className="text-xl font-semibold break-words">
            {session.title}
          </h1>
          <StatusBadge status={state.status} />
          {outside ? null : (
            <ModeChip sessionId={id} mode={state.mode} pending={state.queuedMode} choosable={choosable} />
          )}
          <span className="ml-auto flex flex-wrap items-center gap-2">
            <NotifyOptIn />
            <SessionTools
              sessionId={id}
              title={session.title}
              workspace={session.workspace}
              planPath={state.planPath ?? null}
              lastSeq={state.lastSeq}
              leadTeam={!outside && !state.team && !session.parentId}
            >
              <SessionHistory history={history} />
            </SessionTools>
          </span>
        </div>
        {outside ? (
          <p data-testid="outside-agent" className="text-xs">
            Run by {agentLabel(session.agent, true)} in its own terminal: Plangate reviews its plans; its messages and
            tools stay there.
            {state.team ? null : teamHere ? (
              <>
                {" "}
                <JoinTeamButton sessionId={id} team={teamHere} />
              </>
            ) : null}
          </p>
        ) : null}
        {state.team ? (
          <p data-testid="team-link" className="text-xs">
            Team {state.team.role === "lead" ? "lead" : `member ${state.team.name}`} ·{" "}
            <Link href={`/team/${state.team.id}`} className="underline">
              {state.team.role === "lead" ? "open the mailbox" : "team mailbox"}
            </Link>
          </p>
        ) : null}
        <p className="truncate text-xs text-zinc-600 dark:text-zinc-400" title={session.workspace}>
          {session.agent} agent · {session.model} · {session.workspace}
        </p>
        <UsageLine usage={state.usage} testId="session-usage" />
      </header>
      {/* Outside agents are never answered by a workspace's config, trusted or not: the card is about Plangate's own agent. */}
      {trust?.waiting ? <ConfigTrustCard view={trust} /> : null}
      <SavedPermissions grants={grants} />
      <SessionTimeline
        sessionId={id}
        events={events}
        rendered={renderMessages(
          events,
          verifications,
          history.plans.filter((p) => !state.planId || p.planId === state.planId),
        )}
      />
      <LiveRefresh sessionId={id} after={state.lastSeq} title={session.title} />
      {state.retry ? <RetryBanner key={`${state.retry.attempt}-${state.retry.retryAt}`} retry={state.retry} /> : null}
      {answered ? (
        <DecidedElsewhere key={answered.reviewId} reviewId={answered.reviewId} decision={answered.decision} />
      ) : null}
      {asks.map((ask) => (
        <PermissionCard key={ask.id} ask={ask} />
      ))}
      {pending?.kind === "plan-review" && state.team?.role === "teammate" && state.team.requirePlanApproval ? (
        <>
          <p
            data-testid="waiting-for-lead"
            role="status"
            className="rounded-lg border border-amber-300 p-4 text-sm dark:border-amber-700"
          >
            This teammate&apos;s plan is waiting for its team lead. It is answered from the{" "}
            <Link href={`/team/${state.team.id}`} className="underline">
              team mailbox
            </Link>
            .
          </p>
          {policy && !policy.status.plain ? (
            <PolicyApprovalCard key={`${pending.id}-${policy.status.line}`} reviewId={pending.id} position={policy} />
          ) : null}
        </>
      ) : review && pending ? (
        <PlanDecision
          key={pending.id}
          reviewId={pending.id}
          plan={review}
          autoAllowed={gates.autoGateOpen}
          prePlanMode={state.prePlanMode}
          {...(policy ? { position: policy } : {})}
        />
      ) : question ? (
        <QuestionCard
          key={question.id}
          reviewId={question.id}
          questions={(question.payload as { questions?: QuestionView[] }).questions ?? []}
        />
      ) : outside ? null : (
        <Composer
          sessionId={id}
          mode={state.mode}
          choosable={choosable}
          running={state.openTurnId !== null}
          waitingForPerson={state.status === "awaiting_permission"}
          interrupted={state.interrupted}
          stoppedOnError={state.interrupted && stoppedOnError(events)}
          since={turnStart(events, state.openTurnId)}
        />
      )}
    </section>
  );
}
