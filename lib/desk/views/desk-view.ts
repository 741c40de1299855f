/** What waits for a person on the desk: a plan to review, a question to answer, a permission ask. */
export type DeskKind = "plan" | "question" | "permission";

export type DeskItem = {
  id: string;
  kind: DeskKind;
  sessionId: string;
  /** What is asked, in words: the plan's title, the question, the command or path. */
  title: string;
  session: string;
  workspace: string;
  /** Who asks, in words: "Plangate", "Claude Code", "OpenCode", or a teammate's name. */
  agent: string;
  /** When it started waiting (ISO). */
  since: string;
  /** A teammate's plan: its team, answered there by its lead's people. */
  team: { id: string; name: string } | null;
  /** Who must act, in words ("a reviewer", "the team lead", "an answer"), or what a review policy still needs. */
  needs: string;
  /** Whether `needs` is a review policy's status line ("1 of 2 approvals · needs team db"), or whom a held path is for. */
  policy: boolean;
  /** Whether this reader's answer would move it on (for a plan: its standing counts, as the server accepts it). */
  mine: boolean;
  /** Why this reader's answer would not count, when it would not ("You approved (10:02) · waiting for …"). */
  why?: string;
};

export type DeskFilter = { agent?: string; workspace?: string; mine?: boolean };

const AGENT_NAMES: Record<string, string> = {
  "claude-code": "Claude Code",
  opencode: "OpenCode",
  gemini: "Gemini CLI",
  codex: "Codex",
  pi: "Pi",
  droid: "Factory Droid",
  copilot: "GitHub Copilot CLI",
  qwen: "Qwen Code",
  kilo: "Kilo CLI",
  cline: "Cline CLI",
  amp: "Amp",
  mcp: "An MCP client",
};

/** An agent's name in words: an outside agent by its product name, Plangate's own agents as Plangate. */
export function agentLabel(agent: string, external: boolean): string {
  if (external) return AGENT_NAMES[agent] ?? agent;
  return "Plangate";
}

/** A plan's title: its first heading, else its first line, at most 120 characters. */
export function planTitle(markdown: string): string {
  const lines = markdown.split("\n").map((l) => l.trim());
  const heading = lines.find((l) => /^#{1,6}\s+\S/.test(l));
  // The desk says "Plan: …" itself: a heading that starts with "Plan:" would read "Plan: Plan: …" there.
  const text = (heading ?? lines.find((l) => l.length > 0) ?? "")
    .replace(/^#{1,6}\s+/, "")
    .replace(/^plan\s*[:\-–—]\s*/i, "")
    .trim();
  if (text.length === 0) return "Untitled plan";
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A permission ask in words: what the tool would do, and to what. */
export function askTitle(tool: string, patterns: readonly string[]): string {
  const what = patterns.slice(0, 2).join(", ") + (patterns.length > 2 ? ` and ${patterns.length - 2} more` : "");
  const verb =
    tool === "bash" ? "Run" : tool === "write" || tool === "edit" || tool === "apply_patch" ? "Change" : "Use";
  return what ? `${verb} ${what}` : `Use ${tool}`;
}

/**
 * Oldest first (what waited longest is answered first), then by id so the order never shifts between renders. Code
 * unit order, as deskPage's cursor compares: a locale's order ("a" before "B") would skip or repeat rows across pages.
 */
export function deskOrder<T extends Pick<DeskItem, "since" | "id">>(items: readonly T[]): T[] {
  const by = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return [...items].sort((a, b) => by(a.since, b.since) || by(a.id, b.id));
}

export function filterDesk<T extends Pick<DeskItem, "agent" | "workspace" | "mine">>(
  items: readonly T[],
  filter: DeskFilter,
): T[] {
  return items.filter(
    (i) =>
      (filter.agent === undefined || i.agent === filter.agent) &&
      (filter.workspace === undefined || i.workspace === filter.workspace) &&
      (filter.mine !== true || i.mine),
  );
}

/** How many items a desk page shows (and the API gives by default). */
export const DESK_PAGE = 50;

/** Where a page ends: the last item's wait start and id (the desk's order), as the next page's `after`. */
export const deskCursor = (i: Pick<DeskItem, "since" | "id">) => `${i.since}|${i.id}`;

/**
 * Pure: one page of the desk, in its order, after a cursor (the last item of the page before; an item decided
 * meanwhile still marks its place). `next`: the cursor of the page after, null on the last.
 */
export function deskPage<T extends Pick<DeskItem, "since" | "id">>(
  items: readonly T[],
  after: string | undefined,
  limit = DESK_PAGE,
): { page: T[]; next: string | null } {
  const rest = after === undefined ? items : items.filter((i) => deskCursor(i) > after);
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rest.length > limit && last ? deskCursor(last) : null };
}

/** How long something has waited, in words ("just now", "4 min", "2 h 5 min", "3 days"). */
export function waitedFor(sinceIso: string, now: number): string {
  const minutes = Math.floor(Math.max(0, now - Date.parse(sinceIso)) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day" : `${days} days`;
}

/** The item to open: the one asked for if it still waits (on any page), else the page's first (after a decision, the next one). */
export function openItem<T extends Pick<DeskItem, "id">>(
  items: readonly T[],
  asked: string | undefined,
  page: readonly T[] = items,
): T | undefined {
  return items.find((i) => i.id === asked) ?? page[0];
}
