// How `plangate connect` gives an outside agent its credential. The agent runs unsandboxed as the user, so it
// gets an `agent` token: it may submit its own plans and asks and wait for them, never decide one. The person
// signs in here once (--email) and the token is made for them, or one made on the Tokens page is given with
// --token. Either way it is saved apart from the agent's settings (credentials.json, 0600), never in the project.
import os from "node:os";
import { saveToken, tokenFor } from "./client";
import { readStdin } from "./stdin";

export const TOKEN_OPTIONS = {
  token: { type: "string" },
  email: { type: "string" },
  "password-stdin": { type: "boolean" },
} as const;

export type TokenOptions = { token?: string; email?: string; "password-stdin"?: boolean };

const AGENT_TOKEN_PREFIX = "pgt_";

const readPassword = async () => (await readStdin()).replace(/\r?\n$/, "");

/** A password typed at the terminal, not echoed. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    let typed = "";
    const onData = (data: Buffer) => {
      for (const ch of data.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          input.setRawMode(false);
          input.pause();
          input.off("data", onData);
          process.stderr.write("\n");
          resolve(typed);
          return;
        }
        if (ch === "\u0003") {
          input.setRawMode(false);
          reject(new Error("cancelled"));
          return;
        }
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    };
    input.on("data", onData);
  });
}

async function post(url: string, route: string, body: unknown, cookie?: string) {
  const res = await fetch(new URL(route, url), {
    method: "POST",
    // The server checks Origin on every write: this is its own origin, as its pages send.
    headers: { "content-type": "application/json", origin: new URL(url).origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {}
  return { res, body: parsed };
}

const messageOf = (body: Record<string, unknown>, status: number) =>
  typeof body.message === "string" ? body.message : `HTTP ${status}`;

/** Signs `email` in and makes an `agent` token for them; the secret is only in this response. */
async function makeAgentToken(url: string, agent: string, email: string, password: string): Promise<string> {
  const signIn = await post(url, "/api/auth/sign-in/email", { email, password });
  if (signIn.res.status === 401) throw new Error(`${url} refused the sign-in: wrong email or password`);
  if (!signIn.res.ok) throw new Error(`${url} refused the sign-in: ${messageOf(signIn.body, signIn.res.status)}`);
  const cookie = signIn.res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const name = `${agent} on ${os.hostname()}`.slice(0, 100);
  const made = await post(url, "/api/tokens", { name, scope: "agent" }, cookie);
  await post(url, "/api/auth/sign-out", {}, cookie).catch(() => undefined);
  if (made.res.status !== 201 || typeof made.body.secret !== "string")
    throw new Error(`${url} did not make the token: ${messageOf(made.body, made.res.status)}`);
  return made.body.secret;
}

/**
 * The token step of `connect`, before anything is written: a failure here changes nothing. Returns what to
 * tell the person once the agent's settings are written.
 */
export async function provideToken(url: string, agent: string, opts: TokenOptions): Promise<string[]> {
  if (opts.token !== undefined) {
    const file = saveToken(url, opts.token);
    return opts.token.startsWith(AGENT_TOKEN_PREFIX)
      ? [`token saved in ${file} (not in the settings)`]
      : [
          `token saved in ${file} (not in the settings)`,
          `note: that is not an agent token (${AGENT_TOKEN_PREFIX}…): the hook acts with all its rights. --email you@example.com makes one that may only submit plans and asks`,
        ];
  }
  if (opts.email !== undefined) {
    const password =
      opts["password-stdin"] || !process.stdin.isTTY
        ? await readPassword()
        : await promptHidden(`Password for ${opts.email}: `);
    const secret = await makeAgentToken(url, agent, opts.email, password);
    return [`agent token for ${opts.email} saved in ${saveToken(url, secret)} (not in the settings)`];
  }
  if (tokenFor(url) !== undefined) return [];
  return [
    `note: no token for ${url} yet: run this again with --email you@example.com (it signs you in once and makes an agent token), or --token pgt_… from the Tokens page`,
  ];
}
