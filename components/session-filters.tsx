import { PERMISSION_MODES } from "@/lib/permission/modes";
import { SESSION_STATUSES } from "@/lib/session/events";

export type Filters = { q?: string; status?: string; mode?: string; workspace?: string; team?: string };

const STATUS_LABEL: Record<string, string> = { awaiting_review: "Plan awaiting review", awaiting_permission: "Waiting for permission", running: "Running", idle: "Idle", interrupted: "Interrupted" };

/** Search and filters as a plain GET form: the URL is the state, so a filtered list can be shared and reloaded. */
export function SessionFilters({ filters, workspaces, teams }: { filters: Filters; workspaces: string[]; teams: { id: string; name: string }[] }) {
  const field = "mt-1 w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <form data-testid="session-filters" method="get" role="search" aria-label="Search sessions" className="mb-3 grid gap-2 text-xs sm:grid-cols-[2fr_repeat(4,minmax(0,1fr))_auto]">
      <label>
        Search titles, messages and plans
        <input name="q" type="search" data-testid="filter-q" defaultValue={filters.q ?? ""} className={field} />
      </label>
      <label>
        Status
        <select name="status" data-testid="filter-status" defaultValue={filters.status ?? ""} className={field}>
          <option value="">any</option>
          {SESSION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s] ?? s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Mode
        <select name="mode" data-testid="filter-mode" defaultValue={filters.mode ?? ""} className={field}>
          <option value="">any</option>
          {PERMISSION_MODES.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </label>
      <label>
        Workspace
        <select name="workspace" data-testid="filter-workspace" defaultValue={filters.workspace ?? ""} className={field}>
          <option value="">any</option>
          {workspaces.map((w) => (
            <option key={w} value={w}>
              {w.split("/").slice(-2).join("/")}
            </option>
          ))}
        </select>
      </label>
      {teams.length > 0 ? (
        <label>
          Team
          <select name="team" data-testid="filter-team" defaultValue={filters.team ?? ""} className={field}>
            <option value="">any</option>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      ) : filters.team ? (
        <input type="hidden" name="team" value={filters.team} />
      ) : null}
      <div className="flex items-end gap-2">
        <button type="submit" data-testid="apply-filters" className="rounded bg-zinc-800 px-3 py-1 text-white dark:bg-zinc-200 dark:text-zinc-900">
          Filter
        </button>
        <a href="/" className="py-1 underline">
          Clear
        </a>
      </div>
    </form>
  );
}
