import { may } from "@/lib/auth/rules/rights";
import { findSessionOwner } from "@/lib/db/sessions";
import { findPerson } from "@/lib/db/people/people";
import { listTeamLeads } from "@/lib/db/teams/team-leads";
import { pageActor } from "@/lib/http/page-actor";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getTeam } from "@/lib/team/get-team";
import { readInbox } from "@/lib/team/read-inbox";
import { listTeamMail } from "@/lib/team/mailbox";
import { teamPageQuery } from "./schema";
import { PlanDecision } from "@/components/plan-decision";
import { listReviews, planDetails, reviewPosition } from "@/lib/review/read-review";
import { PlanMarkdown } from "@/components/plan-markdown";
import { MailList } from "@/components/mail-list";
import { TeamMembers } from "@/components/team-members";
import { SendMailForm, SpawnTeammateForm } from "@/components/team-forms";
import { RefreshOnChange } from "@/components/refresh-on-change";
import { MailboxWatch } from "@/components/mailbox-watch";

export const dynamic = "force-dynamic";

/** The lead's mailbox: teammates' plans waiting for approval first, then the team and its messages. */
export default async function TeamPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const since = Date.now();
  const actor = await pageActor();
  const { id } = await params;
  // Only the page's own parameter: another one (a tracking tag) or an empty one is not an error.
  const { mailBefore } = await searchParams;
  const query = teamPageQuery.safeParse(typeof mailBefore === "string" && mailBefore !== "" ? { mailBefore } : {});
  const db = getDb();
  const team = await getTeam(db, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  });
  if (!team) notFound();
  const lead = await findSessionOwner(db, team.leadSessionId);
  if (lead === undefined || !may(actor, "read", lead.workspace)) notFound();
  const [starter, leads] = await Promise.all([
    lead.startedBy ? findPerson(db, { id: lead.startedBy }) : null,
    listTeamLeads(db, team.id),
  ]);
  const leadPeople = [...(starter ? [starter.name] : []), ...leads.map((l) => l.name)];
  // The lead's plan requests waiting for an answer: as many as a page may hold (a team never has that many waiting).
  // The messages a page at a time, latest first: a team that has talked for months costs the same to open.
  const [{ messages: pending }, mail] = await Promise.all([
    readInbox(db, id, { status: "pending", limit: 200 }),
    listTeamMail(db, id, query.success ? query.data.mailBefore : undefined),
  ]);
  const plans = await Promise.all(
    pending.map(async (m) => ({ mail: m, plan: m.requestId ? await planDetails(db, m.requestId) : null })),
  );
  // Where each plan stands, and whether this reader's answer from the mailbox would count (the server's standingOf).
  const positions = new Map(
    await Promise.all(
      plans.map(async (p) => {
        const [review] = p.mail.requestId ? await listReviews(db, { id: p.mail.requestId }) : [];
        return [p.mail.id, review ? await reviewPosition(db, review, actor, "mailbox") : null] as const;
      }),
    ),
  );
  const mine = plans.filter((p) => positions.get(p.mail.id)?.standing?.counts !== false);
  const names = Object.fromEntries(
    [...(team.lead ? [team.lead] : []), ...team.teammates].map((m) => [m.sessionId, m.name]),
  );
  return (
    <section aria-labelledby="team-title" className="flex flex-col gap-5">
      <RefreshOnChange since={since} />
      <MailboxWatch teamId={id} pending={mine.filter((p) => p.mail.type === "plan_approval_request").length} />
      <header>
        <h1 id="team-title" className="text-xl font-semibold">
          {team.name}: mailbox
        </h1>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Lead session:{" "}
          <Link href={`/sessions/${team.leadSessionId}`} className="underline">
            {team.lead?.title ?? team.leadSessionId}
          </Link>
        </p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="team-lead-people">
          {leadPeople.length
            ? `Answered by its lead people: ${leadPeople.join(", ")} (and owners of the workspace).`
            : "Answered by any reviewer of the workspace."}
        </p>
      </header>
      <section aria-labelledby="pending-title" className="flex flex-col gap-3">
        <h2 id="pending-title" className="font-semibold">
          Plans waiting for you ({mine.length}
          {plans.length > mine.length ? `, and ${plans.length - mine.length} for other reviewers` : ""})
        </h2>
        {plans.length === 0 ? (
          <p data-testid="no-pending" className="text-sm text-zinc-600 dark:text-zinc-400">
            Nothing to approve.
          </p>
        ) : null}
        {plans.map(({ mail, plan }) =>
          plan && mail.requestId ? (
            <PlanDecision
              key={mail.id}
              reviewId={mail.requestId}
              plan={plan}
              autoAllowed={false}
              lead={{ url: `/api/teams/${id}/mailbox/${mail.id}/reply`, from: names[mail.from] ?? mail.from }}
              position={positions.get(mail.id) ?? null}
            />
          ) : null,
        )}
      </section>
      <section aria-labelledby="teammates-title" className="flex flex-col gap-2">
        <h2 id="teammates-title" className="font-semibold">
          Teammates
        </h2>
        <TeamMembers teammates={team.teammates} />
        <SpawnTeammateForm teamId={id} />
      </section>
      <section aria-labelledby="mail-title" className="flex flex-col gap-2">
        <h2 id="mail-title" className="font-semibold">
          Messages
        </h2>
        <SendMailForm teamId={id} teammates={team.teammates.map((t) => t.name)} />
        {query.success ? null : (
          <p role="alert" data-testid="mail-query-invalid" className="text-sm text-rose-800 dark:text-rose-300">
            That page of messages is not valid: the latest are shown.
          </p>
        )}
        {mail.earlier !== null ? (
          <Link
            href={`/team/${id}?mailBefore=${mail.earlier}`}
            data-testid="earlier-mail"
            className="text-sm underline"
          >
            Earlier messages
          </Link>
        ) : null}
        <MailList messages={mail.messages} names={names} />
        {query.success && query.data.mailBefore !== undefined ? (
          <Link href={`/team/${id}`} data-testid="latest-mail" className="text-sm underline">
            Latest messages
          </Link>
        ) : null}
      </section>
    </section>
  );
}
