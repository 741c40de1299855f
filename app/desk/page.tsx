import path from "node:path";
import type { Metadata } from "next";
import { cache } from "react";
import Link from "next/link";
import { DESK_PAGE, type DeskFilter, waitedFor } from "@/lib/desk/views/desk-view";
import { getDb } from "@/lib/db/client";
import { type DeskAt, listDeskItems } from "@/lib/desk/list-desk-items";
import { pageActor } from "@/lib/http/page-actor";
import { RefreshOnChange } from "@/components/refresh-on-change";
import { DeskList, type DeskRow } from "@/components/desk-list";
import { OpenDeskItem } from "./open-desk-item";
import { deskQuery } from "./schema";
import { NotifyOptIn } from "@/components/notify-opt-in";

export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

// The page and its title read the same desk once per request (pageActor identifies once per request too).
const readDesk = cache(async (asked: string) => {
  const { filter, item, after } = JSON.parse(asked) as ReturnType<typeof filterOf>;
  return listDeskItems(getDb(), await pageActor(), filter, { item, after } satisfies DeskAt);
});

function filterOf(raw: Record<string, string | string[] | undefined>): {
  filter: DeskFilter;
  item?: string;
  after?: string;
} {
  const parsed = deskQuery.safeParse(raw);
  if (!parsed.success) return { filter: {} };
  const { agent, workspace, mine, item, after } = parsed.data;
  return { filter: { agent, workspace, ...(mine === "1" ? { mine: true } : {}) }, item, after };
}

export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const { forYou } = await readDesk(JSON.stringify(filterOf(await searchParams)));
  return { title: forYou > 0 ? `(${forYou}) Desk · Plangate` : "Desk · Plangate" };
}

/** The desk: every waiting plan, question and permission ask, oldest first, beside the open one's card. */
export default async function DeskPage({ searchParams }: { searchParams: Search }) {
  const since = Date.now();
  const actor = await pageActor();
  const raw = await searchParams;
  const asked = filterOf(raw);
  const { filter, after } = asked;
  // One page of rows; the item asked for opens even when it is on another page.
  const { page, next, open, waiting, forYou, matched, agents, workspaces } = await readDesk(JSON.stringify(asked));
  const now = Date.now();
  const filters = { agent: filter.agent, workspace: filter.workspace, mine: filter.mine ? "1" : undefined };
  const query = (extra: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries({ ...filters, ...extra }).flatMap(([k, v]) => (v ? [[k, v]] : []))).toString();
  const rows: DeskRow[] = page.map((i) => ({
    id: i.id,
    href: `/desk?${query({ after, item: i.id })}`,
    kind: i.kind,
    title: i.title,
    agent: i.agent,
    project: path.basename(i.workspace) || i.workspace,
    // "Needs you" only when this reader's decision would count; a review policy's line says who approved and what
    // is still open ("Approved by Bo (10:02) · Needs 1 more: a reviewer").
    needs: i.mine ? (i.policy ? `Needs you · ${i.needs}` : "Needs you") : sentence(i.needs),
    waited: waitedFor(i.since, now),
    since: i.since,
    mine: i.mine,
    open: i.id === open?.id,
  }));
  const box = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";
  return (
    <section aria-labelledby="desk-title" className="flex flex-col gap-4">
      <RefreshOnChange since={since} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="desk-title" className="text-xl font-semibold">
          Desk{" "}
          <span data-testid="desk-count" className="text-base font-normal">
            ({forYou} for you, {waiting} waiting)
          </span>
        </h1>
        <NotifyOptIn />
      </div>
      <form method="get" action="/desk" className="flex flex-wrap items-end gap-2 text-sm" data-testid="desk-filters">
        <label className="flex flex-col gap-1">
          Agent
          <select name="agent" defaultValue={filter.agent ?? ""} className={box} data-testid="desk-filter-agent">
            <option value="">Any</option>
            {agents.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Workspace
          <select
            name="workspace"
            defaultValue={filter.workspace ?? ""}
            className={box}
            data-testid="desk-filter-workspace"
          >
            <option value="">Any</option>
            {workspaces.map((w) => (
              <option key={w} value={w}>
                {path.basename(w) || w}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="mine"
            value="1"
            defaultChecked={filter.mine === true}
            data-testid="desk-filter-mine"
          />
          Needs me
        </label>
        <button type="submit" className={`${box} min-h-11`} data-testid="desk-filter-apply">
          Show
        </button>
      </form>
      {matched === 0 ? (
        <p
          data-testid="desk-empty"
          className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm dark:border-zinc-700"
        >
          {waiting === 0 ? "Nothing is waiting for a person." : "Nothing waiting matches these filters."}
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]">
          <div className="flex flex-col gap-2">
            <DeskList rows={rows} />
            {after || next ? (
              <nav aria-label="Desk pages" className="flex justify-between text-sm">
                {after ? (
                  <Link href={`/desk?${query({})}`} prefetch={false} className="underline" data-testid="desk-first">
                    First {DESK_PAGE}
                  </Link>
                ) : (
                  <span />
                )}
                {next ? (
                  <Link
                    href={`/desk?${query({ after: next })}`}
                    prefetch={false}
                    className="underline"
                    data-testid="desk-next"
                  >
                    Next {DESK_PAGE}
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </div>
          {open ? <OpenDeskItem key={open.id} db={getDb()} item={open} actor={actor} /> : null}
        </div>
      )}
    </section>
  );
}

/** A status line reads as it is; a bare "who" gets its "Needs". */
const sentence = (needs: string) => (/^(Needs|Approved|You) /.test(needs) ? needs : `Needs ${needs}`);
