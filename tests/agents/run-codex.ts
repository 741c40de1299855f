// Runs the real Codex CLI offline against the fake Responses API: its own CODEX_HOME (a custom provider, plugins,
// analytics and update checks off) and `codex app-server`, driven over stdio JSON-RPC as an IDE drives it, since
// Codex's plan mode (collaboration mode "plan") is reachable there and not through `codex exec`.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

/** A CODEX_HOME whose config.toml sends every model request to the fake (Plangate's connect adds its hooks). */
export function codexHome(parent: string, fakeV1Url: string): string {
  const home = fs.mkdtempSync(path.join(parent, "codex-home-"));
  fs.writeFileSync(
    path.join(home, "config.toml"),
    [
      "# a person's own settings, kept as they are by `plangate connect codex`",
      'model = "gpt-fake"',
      'model_provider = "fake"',
      "check_for_update_on_startup = false",
      "",
      "[model_providers.fake]",
      'name = "Fake local"',
      `base_url = "${fakeV1Url}"`,
      'env_key = "FAKE_OPENAI_API_KEY"',
      'wire_api = "responses"',
      "",
      "[analytics]",
      "enabled = false",
      "",
      // Offline: with plugins on, Codex asks GitHub for its plugin list at start.
      "[features]",
      "plugins = false",
      "",
      // A hook of the person's own that Codex already trusts: Plangate's trust is added beside it.
      '[hooks.state."/elsewhere/hooks.json:stop:0:0"]',
      'trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"',
      "",
    ].join("\n"),
  );
  return home;
}

type Message = { id?: number; method?: string; params?: any; result?: any; error?: unknown };

export class AppServer {
  readonly messages: Message[] = [];
  private nextId = 0;
  private waiters: { pred: (m: Message) => boolean; done: (m: Message) => void }[] = [];
  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    readonly stderr: () => string,
  ) {}

  static start(o: { bin: string; home: string; tmp: string; configHome: string }): AppServer {
    const proc = spawn(o.bin, ["app-server"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: path.dirname(o.home),
        CODEX_HOME: o.home,
        FAKE_OPENAI_API_KEY: "sk-fake",
        // Codex refuses to make its helper links under a temporary folder that holds CODEX_HOME.
        TMPDIR: o.tmp,
        // The hook's saved agent token and connected projects (as on a person's machine; no operator token).
        XDG_CONFIG_HOME: o.configHome,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let err = "";
    proc.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
    const server = new AppServer(proc, () => err);
    readline.createInterface({ input: proc.stdout }).on("line", (line) => {
      let m: Message;
      try {
        m = JSON.parse(line) as Message;
      } catch {
        return;
      }
      server.messages.push(m);
      for (const w of [...server.waiters])
        if (w.pred(m)) {
          server.waiters.splice(server.waiters.indexOf(w), 1);
          w.done(m);
        }
    });
    return server;
  }

  private send(m: Message): void {
    this.proc.stdin.write(`${JSON.stringify(m)}\n`);
  }

  waitFor(pred: (m: Message) => boolean, ms = 90_000): Promise<Message> {
    const seen = this.messages.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = { pred, done: resolve };
      this.waiters.push(w);
      setTimeout(() => {
        const at = this.waiters.indexOf(w);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        reject(new Error(`codex app-server: nothing matched in ${ms} ms\n${this.stderr().slice(-2000)}`));
      }, ms);
    });
  }

  async request(method: string, params: unknown): Promise<any> {
    const id = ++this.nextId;
    this.send({ id, method, params });
    const reply = await this.waitFor((m) => m.id === id && m.method === undefined);
    if (reply.error) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  async init(): Promise<void> {
    await this.request("initialize", {
      clientInfo: { name: "plangate-tests", title: "Plangate tests", version: "0.0.0" },
      capabilities: { experimentalApi: true },
    });
    this.send({ method: "initialized" });
  }

  /** A thread in `cwd`, then one turn with `text`; resolves with the turn's completion notification. */
  async turn(
    cwd: string,
    text: string,
    o: { plan?: boolean; thread?: Record<string, unknown> } = {},
  ): Promise<Message> {
    const { thread } = await this.request("thread/start", { cwd, ...o.thread });
    const { turn } = await this.request("turn/start", {
      threadId: thread.id,
      input: [{ type: "text", text, text_elements: [] }],
      ...(o.plan
        ? {
            collaborationMode: {
              mode: "plan",
              settings: { model: "gpt-fake", reasoning_effort: null, developer_instructions: null },
            },
          }
        : {}),
    });
    return this.waitFor((m) => m.method === "turn/completed" && m.params?.turn?.id === turn.id, 180_000);
  }

  stop(): void {
    this.proc.kill();
  }
}
