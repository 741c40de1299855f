// One registry of error codes shared by server and client: code → HTTP status → default message.
export const ERRORS = {
  bad_request: { status: 400, message: "The request is not valid." },
  invalid_json: { status: 400, message: "The request body is not valid JSON." },
  workspace_not_allowed: { status: 400, message: "The workspace is outside the allowed roots." },
  mode_not_allowed: { status: 409, message: "That permission mode is not allowed right now." },
  unauthorized: { status: 401, message: "Sign in, or send a valid token (Authorization: Bearer …)." },
  sign_in_required: { status: 401, message: "Sign in to see this page." },
  origin_rejected: { status: 403, message: "The request's Origin is not allowed." },
  host_not_allowed: {
    status: 421,
    message: "This server does not answer to that host name (set PLANGATE_ALLOWED_HOSTS to add one).",
  },
  forbidden: { status: 403, message: "You may not do that." },
  not_found: { status: 404, message: "Not found." },
  session_not_found: { status: 404, message: "No session has that id." },
  review_not_found: { status: 404, message: "No review has that id." },
  permission_not_found: { status: 404, message: "No permission request has that id." },
  conflict: { status: 409, message: "The request conflicts with the current state." },
  already_decided: { status: 409, message: "That request was already answered." },
  config_changed: {
    status: 409,
    message: "The workspace's config changed since it was shown: read it again before you trust it.",
  },
  person_required: { status: 403, message: "Only a person may decide this." },
  turn_in_progress: { status: 409, message: "A turn is already running for this session." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  rate_limited: { status: 429, message: "Too many attempts; try again later." },
  internal: { status: 500, message: "Something went wrong on the server." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export type ErrorBody = { error: { code: ErrorCode; message: string; details?: unknown } };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.details !== undefined) body.error.details = this.details;
    return body;
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}
