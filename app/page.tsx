import { readableFilter, readableRoots } from "@/lib/auth/rules/rights";
import { pageActor } from "@/lib/http/page-actor";
import Link from "next/link";
import { ZodError } from "zod";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { listSessions, listSessionsQuery } from "@/lib/session/list-sessions";
import { listTeams } from "@/lib/team/get-team";
import { listWorkspaces } from "@/lib/workspace/list-workspaces";
import { waitingOnOthers } from "@/lib/review/list-waiting";
import { SessionList } from "@/components/session-list";
import { NewSessionForm } from "@/components/new-session-form";
import { SandboxBanner } from "@/components/sandbox-banner";
import { RefreshOnChange } from "@/components/refresh-on-change";
import { SessionFilters, type Filters } from "@/components/session-filters";

export const dynamic = "force-dynamic";

const PRIMARY_AGENTS = ["build", "plan"];
const FILTER_KEYS = ["q", "status", "mode", "workspace", "team", "cursor"] as const;

async function waitingSessions(roots: readonly string[] | null) {
  const [reviews, asks] = await Promise.all(
    (["awaiting_review", "awaiting_permission"] as const).map((status) =>
      listSessions(getDb(), { status, limit: 20 }, roots),
    ),
  );
  return [...(reviews?.sessions ?? []), ...(asks?.sessions ?? [])].sort((a, b) =>
    b.lastActivityAt.localeCompare(a.lastActivityAt),
  );
}

export default async function HomePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const since = Date.now();
  const actor = await pageActor();
  // Only the sessions, teams and waiting work of the workspaces this person has a role in.
  const roots = readableRoots(actor);
  const env = getEnv();
  const raw = await searchParams;
  // Empty form fields mean "any"; an invalid filter shows an error instead of the list.
  const picked = Object.fromEntries(
    FILTER_KEYS.flatMap((k) => (typeof raw[k] === "string" && raw[k] !== "" ? [[k, raw[k]]] : [])),
  );
  const parsed = listSessionsQuery.safeParse(picked);
  const result = parsed.success ? await listSessions(getDb(), parsed.data, roots) : null;
  const filters = picked as Filters;
  const workspaces = listWorkspaces(env.workspaceRoots);
  const teams = await listTeams(getDb(), readableFilter(actor));
  const next = result?.nextCursor
    ? `/?${new URLSearchParams({ ...picked, cursor: result.nextCursor }).toString()}`
    : null;
  const models = [...new Set([env.PLANGATE_MODEL, "offline"])];
  const filtered = Object.keys(picked).some((k) => k !== "cursor");
  // Sessions waiting on a person come first, whatever their age: a review or an ask that nobody sees holds a turn.
  const allWaiting = filtered || picked.cursor ? [] : await waitingSessions(roots);
  // A plan only others can approve under its review policy waits for them: listed apart, after yours.
  const theirs = await waitingOnOthers(
    getDb(),
    actor,
    allWaiting.map((s) => s.id),
  );
  const waiting = allWaiting.filter((s) => !theirs.has(s.id));
  const others = allWaiting.filter((s) => theirs.has(s.id));
  return (
    <section aria-labelledby="sessions-heading">
      {filtered || picked.cursor ? null : <RefreshOnChange since={since} />}
      <SandboxBanner />
      <h1 id="sessions-heading" className="mb-4 text-xl font-semibold">
        Sessions
      </h1>
      {waiting.length > 0 ? (
        <section data-testid="waiting-sessions" aria-labelledby="waiting-heading" className="mb-4">
          <h2 id="waiting-heading" className="mb-2 font-semibold">
            Waiting for you ({waiting.length})
          </h2>
          <SessionList sessions={waiting} />
        </section>
      ) : null}
      {others.length > 0 ? (
        <section data-testid="waiting-for-others" aria-labelledby="others-heading" className="mb-4">
          <h2 id="others-heading" className="mb-2 font-semibold">
            Waiting for other reviewers ({others.length})
          </h2>
          <SessionList sessions={others} />
        </section>
      ) : null}
      <NewSessionForm
        workspaces={workspaces}
        agents={PRIMARY_AGENTS}
        models={models}
        defaultModel={env.PLANGATE_MODEL}
      />
      <SessionFilters filters={filters} workspaces={workspaces} teams={teams} />
      {result ? (
        result.sessions.length === 0 && filtered ? (
          <p
            data-testid="no-matches"
            className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm dark:border-zinc-700"
          >
            No session matches these filters.
          </p>
        ) : (
          <SessionList sessions={result.sessions} />
        )
      ) : (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {parsed.error instanceof ZodError
            ? parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
            : "Invalid filters"}
        </p>
      )}
      {next ? (
        <Link href={next} data-testid="next-page" className="mt-3 inline-block text-sm underline">
          Older sessions
        </Link>
      ) : null}
    </section>
  );
}
