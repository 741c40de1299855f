/** A session as every surface shows it (the API, the list, the page); dates are ISO text. */
export type SessionView = {
  id: string;
  title: string;
  workspace: string;
  agent: string;
  model: string;
  mode: string;
  status: string;
  planSlug: string | null;
  parentId: string | null;
  forkedFromId: string | null;
  teamId: string | null;
  role: string | null;
  lastSeq: number;
  lastActivityAt: string;
  createdAt: string;
};

/**
 * A listed session, with its latest plan's status (draft, submitted, approved, rejected, abandoned) and, for a
 * search, a snippet of what matched (the matched words between \u0002 and \u0003) and, on PostgreSQL, its rank
 * (ts_rank of its best matching document: higher is better; the list itself stays in activity order).
 */
export type SessionListItem = SessionView & { planStatus: string | null; snippet?: string; rank?: number };
