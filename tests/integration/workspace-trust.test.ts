import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import {
  call,
  results,
  settle,
  startScripted,
  testApi,
  trustWorkspaceConfig,
  type Api,
  type Step,
} from "../helpers/api";
import { onPostgres } from "../helpers/db";
import { sandboxForSuite } from "../helpers/sandbox";

// A workspace's .plangate/config.json is a file in the repository. Each test is the attack (the file widening what
// Plangate's own agent may do without a person), then the check that its effect is absent until a person trusted
// exactly that content.
const sandbox = sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

const CONFIG = ".plangate/config.json";
const writeConfig = (config: unknown) => {
  fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
  fs.writeFileSync(path.join(api.workspace, CONFIG), JSON.stringify(config));
};
const trustView = async () =>
  (await api.call("GET", `/api/workspaces/trust?workspace=${encodeURIComponent(api.workspace)}`)).body;

async function run(script: Step[], mode = "default"): Promise<{ id: string; status: string; output: string }> {
  const id = await startScripted(api, [...script, { text: "done" }], { mode });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  const { status, events } = await settle(api, id);
  const out = results(events)
    .map((r) => ("output" in r ? String(r.output) : String(r.error)))
    .join("\n");
  return { id, status, output: out };
}

describe("what a workspace config widens waits for a person's trust", () => {
  it("`bash` and `network` allowed by the file still ask for Plangate's build agent in default mode; once trusted they answer; a changed file asks again", async () => {
    api = testApi();
    writeConfig({ permission: { bash: "allow", network: "allow" } });
    const attack = [call("bash", { command: "touch made.txt", network: true })];
    const first = await run(attack);
    expect(first.status).toBe("awaiting_permission");
    const asked = (await api.call("GET", `/api/permissions?sessionId=${first.id}&status=pending`)).body.permissions.map(
      (p: { permission: string }) => p.permission,
    );
    expect(asked.sort()).toEqual(["bash", "network"]);
    expect(fs.existsSync(path.join(api.workspace, "made.txt"))).toBe(false);
    expect(await trustView()).toMatchObject({
      trusted: false,
      waiting: true,
      widening: ["bash → allow", "network → allow"],
    });

    // Trusted, the same file answers (the command runs, without the network where slirp4netns is missing).
    writeConfig({ permission: { bash: "allow" } });
    await trustWorkspaceConfig(api, api.workspace);
    const trusted = await run([call("bash", { command: "touch made.txt" })]);
    expect(trusted.status).toBe("idle");
    expect(fs.existsSync(path.join(api.workspace, "made.txt"))).toBe(true);

    // One byte more and it is another content: untrusted again.
    fs.appendFileSync(path.join(api.workspace, CONFIG), " ");
    const changed = await run([call("bash", { command: "touch again.txt" })]);
    expect(changed.status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "again.txt"))).toBe(false);
    expect(await trustView()).toMatchObject({
      trusted: false,
      waiting: true,
      trust: expect.objectContaining({ hash: expect.any(String) }),
    });
  });

  it("`edit` allowed by the file still asks; its deny and ask rules apply at once, and an ask never lifts a native deny", async () => {
    api = testApi();
    writeConfig({ permission: { edit: { "*": "allow", "secrets/*": "deny" } } });
    const write = await run([call("write", { path: "notes.md", content: "x\n" })]);
    expect(write.status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "notes.md"))).toBe(false);
    const denied = await run([call("write", { path: "secrets/key.txt", content: "x\n" })], "acceptEdits");
    expect(denied.output).toMatch(/Permission denied/);
    expect(fs.existsSync(path.join(api.workspace, "secrets/key.txt"))).toBe(false);
    // The plan agent may not edit outside its plans (a native deny): the file's "ask" cannot turn that into a question auto answers.
    writeConfig({ permission: { edit: "ask" } });
    const id = await startScripted(api, [call("write", { path: "y.md", content: "x\n" }), { text: "done" }], {
      agent: "plan",
      mode: "auto",
    });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect(String(results((await settle(api, id)).events)[0]?.error ?? "")).toMatch(/Permission denied/);
    expect(fs.existsSync(path.join(api.workspace, "y.md"))).toBe(false);
  });

  it("the file's ask rules bind a person's grant too: an 'always' answers neither the next call nor another pending ask", async () => {
    api = testApi();
    writeConfig({ permission: { bash: { "mkdir *": "ask" } } });
    const start = async (dir: string) => {
      const id = await startScripted(api, [
        call("bash", { command: `mkdir ${dir}` }),
        call("bash", { command: `mkdir ${dir}-again` }),
        { text: "done" },
      ]);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      expect((await settle(api, id)).status).toBe("awaiting_permission");
      return id;
    };
    const [a, b] = [await start("a"), await start("b")];
    const [askA] = (await api.call("GET", `/api/permissions?sessionId=${a}&status=pending`)).body.permissions as {
      id: string;
    }[];
    expect(
      (await api.call("POST", `/api/permissions/${askA?.id}/reply`, { reply: "always", scope: "workspace" })).status,
    ).toBe(200);
    expect((await settle(api, a)).status).toBe("awaiting_permission");
    expect((await api.call("GET", `/api/permissions?sessionId=${b}&status=pending`)).body.permissions).toHaveLength(1);
    expect(fs.existsSync(path.join(api.workspace, "b"))).toBe(false);
    expect(fs.existsSync(path.join(api.workspace, "a-again"))).toBe(false);
  });

  it("a custom agent defined by the file does not exist until the file is trusted", async () => {
    api = testApi();
    writeConfig({ agents: { yolo: { permission: { "*": "allow" } } } });
    const refused = await api.call("POST", "/api/sessions", {
      workspace: api.workspace,
      model: "scripted",
      script: [],
      agent: "yolo",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/no person has trusted yet/);
    await trustWorkspaceConfig(api, api.workspace);
    expect(
      (
        await api.call("POST", "/api/sessions", {
          workspace: api.workspace,
          model: "scripted",
          script: [],
          agent: "yolo",
        })
      ).status,
    ).toBe(201);
  });

  it("trust is for the content shown: a hash from before a change is refused (409) and trusts nothing; trust can be taken back", async () => {
    api = testApi();
    writeConfig({ permission: { bash: "allow" } });
    const shown = await trustView();
    writeConfig({ permission: { bash: "allow", network: "allow" } });
    const late = await api.call("POST", "/api/workspaces/trust", { workspace: api.workspace, hash: shown.hash });
    expect(late.status).toBe(409);
    expect(await trustView()).toMatchObject({ trusted: false, trust: null });
    expect((await api.call("POST", "/api/workspaces/trust", { workspace: api.workspace, hash: "nope" })).status).toBe(
      400,
    );
    expect(
      (await api.call("POST", "/api/workspaces/trust", { workspace: os.tmpdir(), hash: "a".repeat(64) })).status,
    ).toBe(400);
    await trustWorkspaceConfig(api, api.workspace);
    expect(
      (await api.call("DELETE", `/api/workspaces/trust?workspace=${encodeURIComponent(api.workspace)}`)).body,
    ).toMatchObject({ trusted: false, trust: null });
    expect((await run([call("bash", { command: "touch after-revoke.txt" })])).status).toBe("awaiting_permission");
  });
});

describe.skipIf(!sandbox.available)(
  "what the sandbox shows: never more than a trusted config asked for, never the server's own files",
  () => {
    const secret = `sk-ant-${Date.now().toString(36)}-planted`;

    it("an untrusted sandbox.read shows nothing, even in plan mode: a planted .env.local, the server's checkout, /var/lib", async () => {
      const host = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-host-"));
      fs.writeFileSync(path.join(host, ".env.local"), `ANTHROPIC_API_KEY=${secret}\n`);
      try {
        api = testApi();
        writeConfig({ sandbox: { read: [host, process.cwd(), "/var/lib"] } });
        const { output } = await run(
          [call("bash", { command: `cat ${host}/.env.local; ls ${process.cwd()}/package.json; ls /var/lib` })],
          "plan",
        );
        expect(output).not.toContain(secret);
        expect(output).not.toMatch(/package\.json\n/);
        expect(output).toMatch(/No such file[\s\S]*No such file[\s\S]*No such file/);
      } finally {
        fs.rmSync(host, { recursive: true, force: true });
      }
    });

    it("a trusted config showing the server's checkout still hides its .env files; the database and data folder stay hidden when the workspace holds them", async () => {
      const checkout = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-checkout-")));
      fs.writeFileSync(path.join(checkout, "README.md"), "the server's checkout\n");
      fs.writeFileSync(path.join(checkout, ".env.local"), `OPENAI_API_KEY=${secret}\n`);
      const cwd = process.cwd();
      try {
        api = testApi();
        // The data folder inside the workspace (a server pointed at its own project): its files are never shown.
        const data = path.join(api.workspace, "srv-data");
        fs.mkdirSync(data);
        fs.writeFileSync(path.join(data, "other-workspace-secret.txt"), `${secret}\n`);
        Object.assign(process.env, { PLANGATE_DATA_DIR: data });
        resetEnvCache();
        writeConfig({ sandbox: { read: api.t.file ? [checkout, path.dirname(api.t.file)] : [checkout] } });
        await trustWorkspaceConfig(api, api.workspace);
        process.chdir(checkout);
        const db = api.t.file ? `; wc -c < ${api.t.file}` : "";
        const { output } = await run(
          [
            call("bash", {
              command: `cat ${checkout}/README.md; cat ${checkout}/.env.local; ls srv-data; cat srv-data/other-workspace-secret.txt; cat README.md${db}`,
            }),
          ],
          "plan",
        );
        expect(output).toContain("the server's checkout");
        expect(output).toContain("# Demo");
        expect(output).not.toContain(secret);
        // On SQLite the database file reads as empty.
        if (!onPostgres) expect(output, output).toMatch(/\n0\n/);
      } finally {
        process.chdir(cwd);
        fs.rmSync(checkout, { recursive: true, force: true });
      }
    });
  },
);
