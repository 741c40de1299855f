// Runs the real `opencode serve` against a fake OpenAI-compatible API and drives it over its HTTP API.
//
// Isolation: OpenCode gets its own HOME and XDG folders, an empty managed-config folder, an empty models
// catalogue (no models.dev fetch), no auto-update, no LSP downloads, no default plugins, and only PATH, locale
// and the npm registry/proxy settings from this machine.
//
// At start OpenCode npm-installs @opencode-ai/plugin (the CLI's version, ~30 packages) into its config folder and
// into the project's .opencode/ folder, and waits for that before the project is ready. It is only needed by
// plugins that import it; Plangate's plugin imports nothing. So by default npm runs offline with an empty cache:
// the install fails at once (OpenCode logs "background dependency install failed" and goes on) and nothing is
// downloaded. With `npmRegistry: true` it installs from the registry (about 12-15 s here even with a warm cache;
// about 70 s of retries before giving up when the registry is unreachable).
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type OpencodeEvent = { type: string; properties: Record<string, unknown> };

export type OpencodeServer = {
  url: string;
  /** The project folder OpenCode works in (a git repository, so plans go to .opencode/plans/). */
  workspace: string;
  /** Every event from GET /event, in order. */
  events: OpencodeEvent[];
  /** OpenCode's stdout and stderr so far. */
  output: () => string;
  api: <T = unknown>(method: string, route: string, body?: unknown) => Promise<T>;
  createSession: () => Promise<{ id: string; slug: string; time: { created: number } }>;
  /** Sends a prompt without waiting for the answer (POST /session/:id/prompt_async). */
  prompt: (sessionID: string, text: string, agent?: string) => Promise<void>;
  waitForEvent: (pred: (e: OpencodeEvent) => boolean, timeoutMs?: number) => Promise<OpencodeEvent>;
  /** Waits until the session's current prompt loop has ended (session.idle after `afterIndex` events). */
  waitIdle: (sessionID: string, afterIndex?: number, timeoutMs?: number) => Promise<void>;
  messages: (sessionID: string) => Promise<OpencodeMessage[]>;
  stop: () => Promise<void>;
};

export type OpencodePart = {
  type: string;
  text?: string;
  tool?: string;
  callID?: string;
  state?: { status: string; input?: unknown; output?: string; error?: string };
};
export type OpencodeMessage = { info: { id: string; role: string; agent?: string }; parts: OpencodePart[] };

export type StartOptions = {
  bin: string;
  /** The fake model API's base URL (ending in /v1). */
  modelBaseUrl: string;
  /** Files to create in the workspace before starting, relative path → content. */
  files?: Record<string, string>;
  /** Let OpenCode's npm install reach the registry (default: offline, see above). */
  npmRegistry?: boolean;
  /** The npm cache for that install (default: a private one). */
  npmCache?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** The project folder (default: a new one beside the isolated home); it is made a git repository. */
  workspace?: string;
};

const PASS_ENV =
  /^(PATH|LANG|LC_ALL|TZ|npm_config_registry|NPM_CONFIG_REGISTRY|npm_config_cafile|NODE_EXTRA_CA_CERTS|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/;

/** The config that points OpenCode (or, with Kilo's schema, Kilo) at the fake model and starts it in plan mode. */
export function opencodeConfig(
  modelBaseUrl: string,
  schema = "https://opencode.ai/config.json",
): Record<string, unknown> {
  return {
    $schema: schema,
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: modelBaseUrl, apiKey: "fake-key" },
        models: { "fake-model": { name: "Fake model", tool_call: true, limit: { context: 128000, output: 8192 } } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    default_agent: "plan",
    autoupdate: false,
    share: "disabled",
  };
}

/**
 * What differs between OpenCode and its descendants driven the same way (Kilo): where the config goes, the
 * environment that keeps it offline and quiet, and the line that says where it listens.
 */
export type ServeFlavour = {
  name: string;
  listening: RegExp;
  /** Writes the config for the fake model; `env` is what the process gets (its XDG folders included). */
  setup: (o: { base: string; workspace: string; modelBaseUrl: string; env: Record<string, string> }) => void;
  env: (base: string) => Record<string, string>;
};

const OPENCODE_FLAVOUR: ServeFlavour = {
  name: "opencode",
  listening: /opencode server listening on (http:\/\/[^\s]+)/,
  setup: ({ base, workspace, modelBaseUrl }) => {
    fs.writeFileSync(path.join(workspace, "opencode.json"), JSON.stringify(opencodeConfig(modelBaseUrl), null, 2));
    fs.writeFileSync(path.join(base, "models.json"), "{}");
  },
  env: (base) => ({
    OPENCODE_TEST_MANAGED_CONFIG_DIR: path.join(base, "managed"),
    OPENCODE_EXPERIMENTAL_PLAN_MODE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_MODELS_PATH: path.join(base, "models.json"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
  }),
};

export const startOpencode = (opts: StartOptions) => startServe(opts, OPENCODE_FLAVOUR);

export async function startServe(opts: StartOptions, flavour: ServeFlavour): Promise<OpencodeServer> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `plangate-${flavour.name}-`));
  const home = path.join(base, "home");
  const workspace = opts.workspace ?? path.join(base, "workspace");
  for (const d of [home, workspace, path.join(base, "managed")]) fs.mkdirSync(d, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: workspace });
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), content);
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && PASS_ENV.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    ...flavour.env(base),
    // The plugin's credential: the suites' operator token (vitest.config.ts).
    ...(process.env.PLANGATE_TOKEN ? { PLANGATE_TOKEN: process.env.PLANGATE_TOKEN } : {}),
    npm_config_cache: opts.npmCache ?? path.join(home, ".npm"),
    ...(opts.npmRegistry ? {} : { npm_config_offline: "true" }),
    ...opts.env,
  });
  flavour.setup({ base, workspace, modelBaseUrl: opts.modelBaseUrl, env });

  const proc: ChildProcess = spawn(opts.bin, ["serve", "--port", "0", "--hostname", "127.0.0.1", "--print-logs"], {
    cwd: workspace,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  proc.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${flavour.name} serve did not start:\n${log.slice(-3000)}`)),
      opts.startTimeoutMs ?? 60_000,
    );
    const check = () => {
      const m = flavour.listening.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ""));
      }
    };
    proc.stdout?.on("data", check);
    proc.stderr?.on("data", check);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${flavour.name} serve exited (${code}):\n${log.slice(-3000)}`));
    });
  });

  const q = `directory=${encodeURIComponent(workspace)}`;
  const withDir = (route: string) => `${url}${route}${route.includes("?") ? "&" : "?"}${q}`;
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(withDir(route), {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`opencode ${method} ${route}: ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const events: OpencodeEvent[] = [];
  const waiters = new Set<() => void>();
  const abort = new AbortController();
  const connected = new Promise<void>((resolve, reject) => {
    void (async () => {
      try {
        const res = await fetch(withDir("/event"), { signal: abort.signal });
        if (!res.ok || !res.body) throw new Error(`GET /event: ${res.status}`);
        resolve();
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const frame = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const data = frame
              .split("\n")
              .filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).trim())
              .join("\n");
            if (!data) continue;
            try {
              events.push(JSON.parse(data) as OpencodeEvent);
            } catch {
              continue;
            }
            for (const w of [...waiters]) w();
          }
        }
      } catch (err) {
        reject(err as Error);
      }
    })();
  });
  await connected;

  const waitForEvent = (pred: (e: OpencodeEvent) => boolean, timeoutMs = 60_000) =>
    new Promise<OpencodeEvent>((resolve, reject) => {
      let seen = 0;
      const check = () => {
        for (; seen < events.length; seen++) {
          const e = events[seen] as OpencodeEvent;
          if (!pred(e)) continue;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(e);
          return;
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `opencode: no matching event within ${timeoutMs} ms; last events: ${events
              .slice(-8)
              .map((e) => e.type)
              .join(", ")}`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  const stop = async () => {
    abort.abort();
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      try {
        process.kill(-(proc.pid as number), "SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-(proc.pid as number), "SIGKILL");
        } catch {
          // already gone
        }
      }, 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(base, { recursive: true, force: true });
  };

  return {
    url,
    workspace,
    events,
    output: () => log,
    api,
    createSession: () => api("POST", "/session", {}),
    prompt: async (sessionID, text, agent = "plan") => {
      await api("POST", `/session/${sessionID}/prompt_async`, { agent, parts: [{ type: "text", text }] });
    },
    waitForEvent,
    waitIdle: async (sessionID, afterIndex = 0, timeoutMs = 60_000) => {
      let index = 0;
      await waitForEvent(
        (e) => index++ >= afterIndex && e.type === "session.idle" && e.properties.sessionID === sessionID,
        timeoutMs,
      );
    },
    messages: (sessionID) => api("GET", `/session/${sessionID}/message`),
    stop,
  };
}
