import type { DeskItem } from "@/lib/desk/views/desk-view";
import type { Db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/rules/rights";
import { listReviews, planDetails, reviewPosition } from "@/lib/review/read-review";
import { PolicyApprovalCard } from "@/components/policy-approval-card";
import { getSession } from "@/lib/session/get-session";
import { readGates } from "@/lib/session/mode-gates";
import { listRequests } from "@/lib/session/permission-store";
import { listMail } from "@/lib/team/mailbox";
import Link from "next/link";
import { PlanDecision } from "@/components/plan-decision";
import { PermissionCard } from "@/components/permission-card";
import { PlanMarkdown } from "@/components/plan-markdown";
import { QuestionCard, type QuestionView } from "@/components/question-card";

/** The open item's card: the same card its session page (or its team's mailbox) shows, answered the same way. */
export async function OpenDeskItem({ db, item, actor }: { db: Db; item: DeskItem; actor: Actor }) {
  return (
    <section
      aria-labelledby="open-item-title"
      data-testid="desk-open"
      data-item={item.id}
      className="flex flex-col gap-3"
    >
      <header className="flex flex-col gap-1">
        <h2 id="open-item-title" className="text-lg font-semibold break-words">
          {item.title}
        </h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {item.agent} · {item.workspace} ·{" "}
          <Link href={`/sessions/${item.sessionId}`} className="underline" data-testid="desk-open-session">
            {item.session}
          </Link>
          {item.team ? (
            <>
              {" · "}
              <Link href={`/team/${item.team.id}`} className="underline">
                {item.team.name} mailbox
              </Link>
            </>
          ) : null}
        </p>
      </header>
      <Card db={db} item={item} actor={actor} />
    </section>
  );
}

async function Card({ db, item, actor }: { db: Db; item: DeskItem; actor: Actor }) {
  if (item.kind === "permission") {
    const [ask] = await listRequests(db, { id: item.id, status: "pending" });
    return ask ? <PermissionCard ask={ask} /> : <Gone />;
  }
  if (item.kind === "question") {
    const [review] = await listReviews(db, { id: item.id });
    const questions = (review?.payload as { questions?: QuestionView[] } | undefined)?.questions ?? [];
    return <QuestionCard reviewId={item.id} questions={questions} />;
  }
  const [plan, [review], gates, { state }] = await Promise.all([
    planDetails(db, item.id),
    listReviews(db, { id: item.id }),
    readGates(db),
    getSession(db, item.sessionId),
  ]);
  const position = review ? await reviewPosition(db, review, actor) : null;
  if (!plan) return <Gone />;
  // A teammate's plan: its lead's people answer it through the team's mailbox, as on the mailbox page; a reviewer
  // whose approval counts only toward the review policy records it on the record-only route.
  if (item.team && position?.standing?.via === "record-only")
    return <PolicyApprovalCard key={`${item.id}-${position.status.line}`} reviewId={item.id} position={position} />;
  const mail = item.team
    ? (await listMail(db, { teamId: item.team.id, requestId: item.id, type: "plan_approval_request" })).find(
        (m) => m.status !== "answered",
      )
    : undefined;
  return (
    <PlanDecision
      key={item.id}
      reviewId={item.id}
      plan={plan}
      autoAllowed={mail ? false : gates.autoGateOpen}
      prePlanMode={mail ? null : state.prePlanMode}
      {...(item.team && mail
        ? { lead: { url: `/api/teams/${item.team.id}/mailbox/${mail.id}/reply`, from: item.agent } }
        : {})}
      position={position}
    />
  );
}

function Gone() {
  return (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
      This was answered a moment ago.
    </p>
  );
}
