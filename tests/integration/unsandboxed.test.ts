import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetSandboxCache } from "../../lib/sandbox/detect-sandbox";
import { call, results, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";

// Without bubblewrap (not installed, or PLANGATE_SANDBOX=off) a command runs on the host, with its network: no
// sandbox of ours applies, so nothing but a person answers it — not auto mode, not a grant, not a trusted rule.
let api: Api;
const before = process.env.PLANGATE_SANDBOX;
beforeEach(() => {
  process.env.PLANGATE_SANDBOX = "off";
  resetSandboxCache();
});
afterEach(async () => {
  await api?.close();
  if (before === undefined) delete process.env.PLANGATE_SANDBOX;
  else process.env.PLANGATE_SANDBOX = before;
  resetSandboxCache();
});

describe("no sandbox on this machine", () => {
  it.each([
    ["auto mode", "auto", null],
    ["a trusted config's allow", "default", { permission: { bash: { "touch made.txt": "allow" } } }],
  ])(
    "%s does not run a command on the host: it asks a person, and once allowed it runs",
    async (_name, mode, config) => {
      api = testApi();
      if (config) {
        fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
        fs.writeFileSync(path.join(api.workspace, ".plangate/config.json"), JSON.stringify(config));
        await trustWorkspaceConfig(api, api.workspace);
      }
      const id = await startScripted(api, [call("bash", { command: "touch made.txt" }), { text: "done" }], { mode });
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      expect((await settle(api, id)).status).toBe("awaiting_permission");
      expect(fs.existsSync(path.join(api.workspace, "made.txt"))).toBe(false);
      const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as {
        id: string;
        metadata: { sandboxed: boolean };
      }[];
      expect(ask?.metadata.sandboxed).toBe(false);
      expect((await api.call("POST", `/api/permissions/${ask?.id}/reply`, { reply: "once" })).status).toBe(200);
      expect((await settle(api, id)).status).toBe("idle");
      expect(fs.existsSync(path.join(api.workspace, "made.txt"))).toBe(true);
    },
  );

  it("a read-only command of the allowlist still runs, confined to the workspace", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [call("bash", { command: "cat README.md" }), call("bash", { command: "cat /etc/hostname" }), { text: "done" }],
      { mode: "auto" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { status, events } = await settle(api, id);
    expect(String(results(events)[0]?.output)).toContain("# Demo");
    // Reading outside the workspace is not confined: on the host that is a person's question.
    expect(status).toBe("awaiting_permission");
    const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as {
      patterns: string[];
    }[];
    expect(ask?.patterns).toEqual(["cat /etc/hostname"]);
  });
});
