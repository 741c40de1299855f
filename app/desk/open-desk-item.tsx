import type { DeskItem } from "@/lib/core/desk-view";
import type { Db } from "@/lib/db/client";
import { listReviews } from "@/lib/plan/list-reviews";
import { planDetails } from "@/lib/plan/review-details";
import { reviewVerdict } from "@/lib/plan/weigh-approval";
import { getSession } from "@/lib/session/get-session";
import { readGates } from "@/lib/session/mode-gates";
import { listRequests } from "@/lib/session/permission-store";
import { readInbox } from "@/lib/team/read-inbox";
import Link from "next/link";
import { PlanDecision } from "@/components/plan-decision";
import { PermissionCard } from "@/components/permission-card";
import { PlanMarkdown } from "@/components/plan-markdown";
import { QuestionCard, type QuestionView } from "@/components/question-card";

/** The open item's card: the same card its session page (or its team's mailbox) shows, answered the same way. */
export async function OpenDeskItem({ db, item }: { db: Db; item: DeskItem }) {
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
      <Card db={db} item={item} />
    </section>
  );
}

async function Card({ db, item }: { db: Db; item: DeskItem }) {
  if (item.kind === "permission") {
    const [ask] = await listRequests(db, { id: item.id, status: "pending" });
    return ask ? <PermissionCard ask={ask} /> : <Gone />;
  }
  if (item.kind === "question") {
    const [review] = await listReviews(db, { id: item.id });
    const questions = (review?.payload as { questions?: QuestionView[] } | undefined)?.questions ?? [];
    return <QuestionCard reviewId={item.id} questions={questions} />;
  }
  const [plan, verdict, gates, { state }] = await Promise.all([
    planDetails(db, item.id),
    reviewVerdict(db, item.id),
    readGates(db),
    getSession(db, item.sessionId),
  ]);
  if (!plan) return <Gone />;
  // A teammate's plan is answered through its team's mailbox, as on the mailbox page.
  const mail = item.team
    ? (await readInbox(db, item.team.id, { status: "pending" })).find((m) => m.requestId === item.id)
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
      policy={verdict && !verdict.plain ? verdict.summary : undefined}
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
