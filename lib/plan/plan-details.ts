import type { AgentReceives } from "../core/agent-receives";
import type { PlanThread } from "./plan-threads";

/** What a plan review shows (plain data, so that components may take it without reaching the database). */
export type PlanDetails = {
  planId: string;
  version: number;
  markdown: string;
  path: string;
  /** The session's workspace (checked when the session was made). */
  workspace: string;
  status: string;
  editedByUser: boolean;
  previous: { version: number; markdown: string } | null;
  /** Unified diff from the previous version (empty for the first). */
  diff: string;
  /** Threads started on earlier versions: beside their text in this one, resolved, or outdated. */
  threads: PlanThread[];
  /** The files its items name: what the review policy judges it by, shown on the card. */
  files: string[];
  /** For an outside agent's plan: what that agent receives with an approval (null: Plangate's own agent). */
  receives: AgentReceives | null;
};
