import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sandboxForSuite } from "../helpers/sandbox";
import { call, results, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { driveAnswering, externalIPv4, listen, type Listener } from "../helpers/boundary";
import { waitFor } from "../helpers/poll";

/*
 * The sandbox shows the workspace and the system's programs, not the host: no home folders, no data folder,
 * no /etc/shadow, no host sockets. It has no network unless a person allowed the network for that command,
 * and then never the host's loopback, where Plangate itself listens.
 */
const sandbox = sandboxForSuite({ network: true });
const tag = Math.random().toString(36).slice(2, 8);
let api: Api;
let loopback: Listener;
let outside: Listener | null = null;
const homeSecret = path.join(os.homedir(), `.plangate-secret-${tag}`);

beforeAll(async () => {
  loopback = await listen("127.0.0.1");
  const ip = externalIPv4();
  if (ip) outside = await listen(ip);
  fs.writeFileSync(homeSecret, "home secret\n");
});

afterAll(async () => {
  await loopback.close();
  await outside?.close();
  fs.rmSync(homeSecret, { force: true });
});

afterEach(async () => {
  await api?.close();
});

async function runAll(
  commands: { command: string; network?: boolean }[],
  mode: string,
  answer: () => Record<string, unknown> | null = () => ({ reply: "once" }),
) {
  const id = await startScripted(api, [...commands.map((c) => call("bash", c)), { text: "done" }], { mode });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  const asks = await driveAnswering(api, (s) => settle(api, s), id, answer);
  const { events } = await settle(api, id);
  return {
    id,
    asks,
    outputs: results(events)
      .filter((r) => r.tool === "bash")
      .map((r) => ({ ok: r.ok, text: String(r.output ?? r.error) })),
  };
}

describe.skipIf(!sandbox.available)("the host is hidden from commands", () => {
  it.each(["plan", "default"])(
    "in %s mode: no shadow file, home folders, data folder, database or host sockets",
    async (mode) => {
      api = testApi();
      const dataSecret = path.join(path.dirname(api.workspace), "data-secret.txt");
      fs.writeFileSync(dataSecret, "data secret\n");
      const { outputs } = await runAll(
        [
          { command: "cat /etc/shadow" },
          { command: `cat ${homeSecret}` },
          { command: "ls -a /root /home" },
          { command: `cat ${dataSecret}` },
          { command: `ls ${path.dirname(api.workspace)}` },
          { command: `cat ${api.t.file}` },
          { command: "ls /run /var/run" },
          { command: `cat ${os.homedir()}/.gitconfig` },
          { command: "cat /proc/1/environ" },
        ],
        mode,
      );
      const all = outputs.map((o) => o.text).join("\n");
      for (const secret of ["home secret", "data secret", "SQLite format", "root:"]) expect(all).not.toContain(secret);
      // The folder holding the workspace shows only the workspace, not its neighbours.
      expect(outputs[4]?.text.split("\n")[0]).toBe("project");
      expect(outputs[0]?.text).toContain("No such file or directory");
      expect(outputs[1]?.text).toContain("No such file or directory");
    },
  );

  it("git, node, npm, python and make keep working, read-only and when a command may write", async () => {
    api = testApi();
    const checks =
      "git --version && node -e 'console.log(\"node\", 6*7)' && npm --version && python3 -c 'print(\"py\", 6*7)' && make --version | head -1";
    const { outputs } = await runAll(
      [
        { command: checks },
        {
          command:
            "git init -q repo && cd repo && echo x > f && git add f && git -c user.name=a -c user.email=a@b commit -qm first && git log --oneline | wc -l",
        },
        { command: "npm init -y >/dev/null && node -e 'console.log(require(\"./package.json\").name)'" },
        { command: 'python3 -c \'import json,sys; json.dump({"ok": True}, open("out.json", "w"))\' && cat out.json' },
      ],
      "default",
    );
    expect(outputs[0]?.text).toMatch(/git version[\s\S]*node 42[\s\S]*\d+\.\d+\.\d+[\s\S]*py 42[\s\S]*GNU Make/);
    expect(outputs[1]?.text).toMatch(/^1\n/);
    expect(outputs[2]?.text).toMatch(/^project\n/);
    expect(outputs[3]?.text).toContain('{"ok": true}');
    for (const o of outputs) expect(o.text).toMatch(/exit code 0$/);
  });

  it("a workspace config may add a read-only folder, but never a home folder or Plangate's data", async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-shared-"));
    fs.writeFileSync(path.join(shared, "lib.txt"), "shared library\n");
    try {
      api = testApi({ files: { "README.md": "# Demo\n" } });
      const dataSecret = path.join(path.dirname(api.workspace), "data-secret.txt");
      fs.writeFileSync(dataSecret, "data secret\n");
      const read = [shared, os.homedir(), path.dirname(api.workspace), "/etc", "/"];
      fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
      fs.writeFileSync(path.join(api.workspace, ".plangate/config.json"), JSON.stringify({ sandbox: { read } }));
      // Until a person trusted this content, the file shows commands nothing (it is the repository's).
      const before = await runAll([{ command: `cat ${shared}/lib.txt` }], "default");
      expect(before.outputs[0]?.text).toMatch(/No such file/);
      expect(before.outputs[0]?.text).not.toContain("shared library");
      await trustWorkspaceConfig(api, api.workspace);
      const { outputs } = await runAll(
        [
          { command: `cat ${shared}/lib.txt` },
          { command: `cat ${homeSecret}` },
          { command: `cat ${dataSecret}` },
          { command: "cat /etc/shadow" },
        ],
        "default",
      );
      expect(outputs[0]?.text).toContain("shared library");
      const rest = outputs
        .slice(1)
        .map((o) => o.text)
        .join("\n");
      for (const secret of ["home secret", "data secret", "root:"]) expect(rest).not.toContain(secret);
    } finally {
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it("the server's secrets are not in a command's environment", async () => {
    api = testApi({
      env: {
        ANTHROPIC_API_KEY: `sk-ant-${tag}`,
        AWS_ACCESS_KEY_ID: `AKIA${tag}`,
        PLANGATE_TOKEN: `token-${tag}-0123456789`,
      },
    });
    const { outputs } = await runAll([{ command: "env" }], "default");
    expect(outputs[0]?.text).not.toContain(tag);
  });
});

describe.skipIf(!sandbox.available)("no network unless a person allows it, and never the host's loopback", () => {
  const send = (host: string, port: number) => `echo hello-${tag} > /dev/tcp/${host}/${port}`;

  it("an approved command without the network permission reaches nothing", async () => {
    api = testApi();
    const targets = [send("127.0.0.1", loopback.port), ...(outside ? [send(outside.host, outside.port)] : [])];
    const { outputs } = await runAll(
      targets.map((command) => ({ command })),
      "default",
    );
    for (const o of outputs) expect(o.text).toMatch(/Network is unreachable|Connection refused/);
    expect(loopback.received()).toBe("");
    expect(outside?.received() ?? "").toBe("");
  });

  it.skipIf(!sandbox.slirpPath)(
    "network: true asks for the network by name; allowed, it reaches other hosts but not the host's loopback",
    async () => {
      api = testApi();
      const targets = [
        send("127.0.0.1", loopback.port),
        send("localhost", loopback.port),
        ...(outside ? [send(outside.host, outside.port)] : []),
      ];
      const { asks, outputs } = await runAll(
        targets.map((command) => ({ command, network: true })),
        "default",
      );
      const named = (permission: string) => asks.filter((a) => a.permission === permission).map((a) => a.patterns);
      expect(named("network")).toHaveLength(targets.length);
      expect(named("network")).toEqual(named("bash"));
      expect(outputs[0]?.text).toContain("Connection refused");
      expect(outputs[1]?.text).toContain("Connection refused");
      expect(loopback.connections()).toBe(0);
      if (outside) {
        expect(outputs[2]?.text).toMatch(/exit code 0$/);
        await waitFor("the outside listener", async () => outside!.received().includes(`hello-${tag}`));
      } else {
        console.warn("no non-loopback IPv4 address on this machine: the positive network check was not run");
      }
    },
  );

  it("in plan mode the network is denied outright", async () => {
    api = testApi();
    const { asks, outputs } = await runAll([{ command: send("127.0.0.1", loopback.port), network: true }], "plan");
    expect(asks).toHaveLength(0);
    expect(outputs[0]?.ok).toBe(false);
    expect(outputs[0]?.text).toContain("network");
    expect(loopback.received()).toBe("");
  });
});

describe.skipIf(!sandbox.available)(
  "the workspace's verify command runs only once a person allowed that exact command",
  () => {
    it("waits for the person; once runs it in the sandbox without network; always for the workspace runs the next check unasked", async () => {
      const command = `touch VERIFY-RAN; echo verify-${tag} > /dev/tcp/127.0.0.1/${loopback.port}; echo tests passed`;
      api = testApi({
        files: {
          "README.md": "# Demo\n",
          ".plangate/config.json": JSON.stringify({ verify: { command, timeoutMs: 20_000 } }),
        },
      });
      await trustWorkspaceConfig(api, api.workspace);
      execFileSync("git", ["init", "-q"], { cwd: api.workspace });
      const id = await startScripted(
        api,
        [
          call("exit_plan_mode", { plan: "# Plan\n\n1. Add NOTES.md\n" }),
          call("write", { path: "NOTES.md", content: "x\n" }),
          { text: "done" },
        ],
        { mode: "plan" },
      );
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
      expect((await settle(api, id)).status).toBe("awaiting_review");
      const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id;
      await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
      const ask = await waitFor(
        "the verify ask",
        async () => (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions[0],
        20_000,
      );
      expect(ask).toMatchObject({ tool: "verify", permission: "verify", patterns: [command] });
      expect((await api.call("GET", `/api/sessions/${id}`)).body.state.status).toBe("awaiting_permission");
      // Nothing ran while it waited.
      expect(fs.existsSync(path.join(api.workspace, "VERIFY-RAN"))).toBe(false);
      expect((await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications).toHaveLength(0);

      await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" });
      const first = await waitFor(
        "the verification",
        async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
        20_000,
      );
      expect(first.report.test.outputTail).toContain("tests passed");
      expect(fs.existsSync(path.join(api.workspace, "VERIFY-RAN"))).toBe(true);
      expect(loopback.received()).not.toContain(`verify-${tag}`);

      // "once" was for that check: the next one asks again; "always" (workspace) answers the one after.
      const again = await api.call("POST", `/api/sessions/${id}/verify`);
      expect(again.status).toBe(202);
      expect(again.body.permission.patterns).toEqual([command]);
      await api.call("POST", `/api/permissions/${again.body.permission.id}/reply`, {
        reply: "always",
        scope: "workspace",
      });
      await waitFor(
        "the second verification",
        async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications.length === 2,
        20_000,
      );
      expect((await api.call("POST", `/api/sessions/${id}/verify`)).status).toBe(201);

      // The agent rewrote the config: the new content is not trusted, so its command is not even asked about.
      fs.writeFileSync(
        path.join(api.workspace, ".plangate/config.json"),
        JSON.stringify({ verify: { command: "touch EVIL-RAN" } }),
      );
      const untrusted = await api.call("POST", `/api/sessions/${id}/verify`);
      expect(untrusted.status).toBe(201);
      expect(untrusted.body.verification.report.test.notRun).toMatch(/not trusted/);
      // Trusted again, the different command is not covered by the grant for the first one: it asks.
      await trustWorkspaceConfig(api, api.workspace);
      expect((await api.call("POST", `/api/sessions/${id}/verify`)).status).toBe(202);
      expect(fs.existsSync(path.join(api.workspace, "EVIL-RAN"))).toBe(false);
    });

    it("declined: the check goes on without it and says so", async () => {
      api = testApi({
        files: {
          "README.md": "# Demo\n",
          ".plangate/config.json": JSON.stringify({ verify: { command: "touch VERIFY-RAN" } }),
        },
      });
      await trustWorkspaceConfig(api, api.workspace);
      const id = await startScripted(
        api,
        [
          call("exit_plan_mode", { plan: "# Plan\n\n1. Add NOTES.md\n" }),
          call("write", { path: "NOTES.md", content: "x\n" }),
          { text: "done" },
        ],
        { mode: "plan" },
      );
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
      await settle(api, id);
      const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id;
      await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
      const ask = await waitFor(
        "the verify ask",
        async () => (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions[0],
        20_000,
      );
      await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "reject" });
      const v = await waitFor(
        "the verification",
        async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
        20_000,
      );
      expect(v.report.test.notRun).toBe("the person declined to run it");
      expect(v.report.summary).toContain("verify command not run");
      expect(fs.existsSync(path.join(api.workspace, "VERIFY-RAN"))).toBe(false);
    });
  },
);
