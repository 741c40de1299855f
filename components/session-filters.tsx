import { PERMISSION_MODES } from "@/lib/permission/modes";
import { SESSION_STATUSES } from "@/lib/session/log/events";
import { MODE_LABEL, STATUS_LABEL } from "@/lib/vocabulary";
import { SubmitOnChange } from "./submit-on-change";

export type Filters = { q?: string; status?: string; mode?: string; workspace?: string; team?: string };

const FIELD =
  "mt-1 w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: keyof Filters;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <label>
      {label}
      <SubmitOnChange
        name={name}
        testId={`filter-${name}`}
        value={value ?? ""}
        className={FIELD}
        options={[{ value: "", label: "any" }, ...options]}
      />
    </label>
  );
}

/** Search and filters as a plain GET form: the URL is the state, so a filtered list can be shared and reloaded. */
export function SessionFilters({
  filters,
  workspaces,
  teams,
}: {
  filters: Filters;
  workspaces: string[];
  teams: { id: string; name: string }[];
}) {
  return (
    <form
      data-testid="session-filters"
      method="get"
      role="search"
      aria-label="Search sessions"
      className="mb-3 grid gap-2 text-xs sm:grid-cols-[2fr_repeat(4,minmax(0,1fr))_auto]"
    >
      <label>
        Search titles, messages and plans
        <input name="q" type="search" data-testid="filter-q" defaultValue={filters.q ?? ""} className={FIELD} />
      </label>
      <FilterSelect
        name="status"
        label="Status"
        value={filters.status}
        options={SESSION_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] ?? s }))}
      />
      <FilterSelect
        name="mode"
        label="Mode"
        value={filters.mode}
        options={PERMISSION_MODES.map((m) => ({ value: m, label: MODE_LABEL[m] ?? m }))}
      />
      <FilterSelect
        name="workspace"
        label="Workspace"
        value={filters.workspace}
        options={workspaces.map((w) => ({ value: w, label: w.split("/").slice(-2).join("/") }))}
      />
      {teams.length > 0 ? (
        <FilterSelect
          name="team"
          label="Team"
          value={filters.team}
          options={teams.map((t) => ({ value: t.id, label: t.name }))}
        />
      ) : filters.team ? (
        <input type="hidden" name="team" value={filters.team} />
      ) : null}
      <div className="flex items-end gap-2">
        <button
          type="submit"
          data-testid="apply-filters"
          className="rounded bg-zinc-800 px-3 py-1 text-white dark:bg-zinc-200 dark:text-zinc-900"
        >
          Filter
        </button>
        <a href="/" className="py-1 underline">
          Clear
        </a>
      </div>
    </form>
  );
}
