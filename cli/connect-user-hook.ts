// What `connect gemini` and `connect codex` share: both agents read hooks from the user's settings, so each takes
// the same options (a server, a token, which projects, a timeout, asks, a check, removal) and the same token step.
import fs from "node:fs";
import { provideToken, TOKEN_OPTIONS } from "./agent-token";
import { optionsOrUsage, type Options } from "./options";
import { urlOption } from "./project-file";

export const USER_HOOK_OPTIONS = {
  url: { type: "string" },
  ...TOKEN_OPTIONS,
  scope: { type: "string" },
  timeout: { type: "string" },
  asks: { type: "boolean" },
  check: { type: "boolean" },
  remove: { type: "boolean" },
} as const;

export type UserHookRequest = {
  opts: Options<typeof USER_HOOK_OPTIONS>;
  url: string;
  scope: "project" | "user";
  timeoutSec: number;
  /** The project connect runs in (its real path). */
  project: string;
};

/** The command line read and checked, or the exit code after saying on stderr what is wrong. */
export function userHookRequest(args: string[], usage: string, maxTimeoutSec: number): UserHookRequest | number {
  const opts = optionsOrUsage(args, USER_HOOK_OPTIONS, usage);
  if (opts === null) return 2;
  const url = urlOption(opts.url);
  if (url === null) return 2;
  const scope = String(opts.scope ?? "project");
  const timeoutSec = Number(opts.timeout ?? 3600);
  if (
    (scope !== "project" && scope !== "user") ||
    !Number.isInteger(timeoutSec) ||
    timeoutSec < 60 ||
    timeoutSec > maxTimeoutSec
  ) {
    console.error(
      `plangate: --scope is project or user; --timeout is whole seconds from 60 to ${maxTimeoutSec}\n${usage}`,
    );
    return 2;
  }
  return { opts, url, scope, timeoutSec, project: fs.realpathSync(process.cwd()) };
}

/** The agent token step, before anything is written (none with --remove); null after saying why it failed. */
export async function userHookToken(r: UserHookRequest, agent: string): Promise<string[] | null> {
  if (r.opts.remove) return [];
  try {
    return await provideToken(r.url, agent, r.opts);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return null;
  }
}
