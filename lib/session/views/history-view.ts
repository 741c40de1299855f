import type { SideRow } from "../../plan/views/side-by-side";
import type { Usage } from "../log/usage";

export type PlanVersionView = {
  planId: string;
  version: number;
  status: string;
  decision: string | null;
  feedback: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  editedByUser: boolean;
  createdAt: string;
  content: string;
  changes: SideRow[] | null;
  /** For an approved version: verified (pass), failed, or not verified yet. */
  verification: "verified" | "failed" | "changed, not checked" | "not verified" | null;
  /** The reviewer's comments on lines of this version. */
  comments: { lineStart: number; lineEnd: number; quote: string; body: string; author: string }[];
};
export type ModeChangeView = { seq: number; from: string; to: string; cause: string; at: string };
export type PermissionDecisionView = {
  id: string;
  tool: string;
  permission: string;
  patterns: string[];
  status: string;
  scope: string | null;
  message: string | null;
  at: string;
};
export type RelatedSession = {
  id: string;
  title: string;
  relation: "parent" | "subagent" | "forked from" | "fork" | "lead" | "teammate";
};
export type SessionHistory = {
  /** A page of plan versions, newest first. */
  plans: PlanVersionView[];
  /** The cursor of the page of older plan versions (`plansAfter`), null when this page holds the oldest. */
  plansNext: string | null;
  modes: ModeChangeView[];
  permissions: PermissionDecisionView[];
  related: RelatedSession[];
  /** How many there are in all: with `recent` (and for plan versions, always) only the latest of them are listed. */
  totals: { modes: number; permissions: number; plans: number };
  /** The session's tokens in all; null when its model reported none (offline, scripted). */
  usage: Usage | null;
};
