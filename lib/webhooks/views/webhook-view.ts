export type AttemptView = {
  number: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

export type DeliveryView = {
  id: string;
  sessionId: string;
  seq: number;
  event: string;
  /** The URL without credentials or query string (a hook's URL often carries its own token). */
  url: string;
  source: string;
  status: string;
  attempts: AttemptView[];
  nextAttemptAt: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  body: unknown;
};
