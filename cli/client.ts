// The CLI's side of talking to a Plangate server: where it is, its token (never written into an agent's
// settings, which may be committed: kept in ~/.config/plangate/credentials.json, mode 600), and JSON calls.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const DEFAULT_URL = "http://127.0.0.1:3000";

/** ~/.config/plangate (or under XDG_CONFIG_HOME): the CLI's own files, never inside a project. */
export function configDir(): string {
  return path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "plangate");
}

function credentialsFile(): string {
  return path.join(configDir(), "credentials.json");
}

function readCredentials(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(credentialsFile(), "utf8"));
    return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Saves the token for a server URL (0600), so hooks find it without it appearing in any agent's config. */
export function saveToken(url: string, token: string): string {
  const file = credentialsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify({ ...readCredentials(), [url]: token }, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

// Tokens a caller was given for a server (the OpenCode plugin's own, when its file carries one): asked first.
const given = new Map<string, string>();

export function rememberToken(url: string, token: string): void {
  given.set(url, token);
}

export function tokenFor(url: string): string | undefined {
  return given.get(url) || process.env.PLANGATE_TOKEN || readCredentials()[url];
}

export type Reply = { status: number; body: unknown };

/** A request that does not say how long it may take ends after this (a long poll waits up to 25 s): a server that never answers is an error. */
export const DEFAULT_REQUEST_MS = 45_000;

export async function callServer(
  url: string,
  method: string,
  route: string,
  body?: unknown,
  signal: AbortSignal = AbortSignal.timeout(DEFAULT_REQUEST_MS),
): Promise<Reply> {
  const token = tokenFor(url);
  // Measured: a fetch whose signal fires within milliseconds of its start can stay unsettled for seconds, past a
  // hook's deadline; the signal ends the wait whatever fetch does.
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  const res = await Promise.race([
    fetch(new URL(route, url), {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    }),
    aborted,
  ]);
  const text = await Promise.race([res.text(), aborted]);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}
