import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { operatorHeaders, realServerFixture } from "../helpers/server";

// What `npm start` tells the operator in the terminal, not only on a page: that commands will not be sandboxed,
// and which workspaces have a config waiting for a person's trust (the README's own example among them).
const fixture = realServerFixture("start-log", { PLANGATE_SANDBOX: "off" }, (ws) => {
  fs.mkdirSync(path.join(ws, ".plangate"));
  fs.writeFileSync(
    path.join(ws, ".plangate/config.json"),
    JSON.stringify({ permission: { bash: { "npm test": "allow" } } }),
  );
  fs.writeFileSync(path.join(ws, "README.md"), "# x\n");
});

describe("the start log", () => {
  it("says that commands will not be sandboxed, with the package to install", () => {
    const log = fixture.server().log();
    expect(log).toMatch(/WARNING: shell commands will NOT be sandboxed \(PLANGATE_SANDBOX=off\)/);
    expect(log).toContain("apt-get install bubblewrap");
  });

  it("names the workspace whose config waits for trust, what it would allow, and where to review it; the page trusts it", async () => {
    const server = fixture.server();
    const ws = fs.realpathSync(fixture.workspace);
    const log = server.log();
    expect(log).toContain(`${ws}/.plangate/config.json waits for a person's trust`);
    expect(log).toContain('bash "npm test" → allow');
    const page = `${server.url}/workspace?path=${encodeURIComponent(ws)}`;
    expect(log).toContain(`/workspace?path=${encodeURIComponent(ws)}`);
    const html = await (await fetch(page, { headers: operatorHeaders() })).text();
    expect(html).toContain("waits for your trust");
    const view = (await (
      await fetch(`${server.url}/api/workspaces/trust?workspace=${encodeURIComponent(ws)}`, {
        headers: operatorHeaders(),
      })
    ).json()) as { hash: string; trusted: boolean };
    expect(view.trusted).toBe(false);
    const trusted = await fetch(`${server.url}/api/workspaces/trust`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...operatorHeaders() },
      body: JSON.stringify({ workspace: ws, hash: view.hash }),
    });
    expect(trusted.status).toBe(200);
    expect(await (await fetch(page, { headers: operatorHeaders() })).text()).toContain("is trusted");
  });
});
