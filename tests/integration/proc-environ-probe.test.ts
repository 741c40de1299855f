import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";

// Probe (held when tried): a person allows the folder of /proc/self/environ; the operator token must not leak.
sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("the server's /proc is not a folder a person can show", () => {
  it.each(["/proc/self/environ", "/proc/self/cwd/.env", "/proc/self/root/proc/self/environ"])(
    "reading %s, allowed once, shows no server secret",
    async (p) => {
      api = testApi();
      const id = await startScripted(api, [
        call("read", { path: p }),
        call("list", { path: "/proc/self/fd" }),
        { text: "done" },
      ]);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      await driveAnswering(
        api,
        (s) => settle(api, s),
        id,
        () => ({ reply: "once" }),
      );
      const log = JSON.stringify(await api.t.db.sessionEvent.findMany({ where: { sessionId: id } }));
      if (process.env.SHOW_PROBE) console.log(log.match(/tool.result[^}]*}/g)?.join("\n"));
      expect(log).not.toContain(process.env.PLANGATE_TOKEN as string);
      expect(log).not.toContain("DATABASE_URL=");
    },
  );
});
