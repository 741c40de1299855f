// The CLI file another machine fetches: served without a credential (a person installs it before they have a
// token), the same bytes the checkout runs, and it runs alone, with no checkout and no node_modules beside it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { realServerFixture, type Server } from "../helpers/server";

const fixture = realServerFixture("cli-file");
let server: Server;
beforeAll(() => {
  server = fixture.server();
});

describe("GET /cli/plangate.mjs", () => {
  it("is served without sign-in, with an ETag, and runs from an empty folder", async () => {
    const res = await fetch(`${server.url}/cli/plangate.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/javascript");
    const body = Buffer.from(await res.arrayBuffer());
    const built = fs.readFileSync(path.resolve(import.meta.dirname, "../../dist/cli/plangate.mjs"));
    expect(body.equals(built)).toBe(true);
    const etag = res.headers.get("etag") ?? "";
    const same = await fetch(`${server.url}/cli/plangate.mjs`, { headers: { "if-none-match": etag } });
    await same.arrayBuffer();
    expect(same.status).toBe(304);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-fetched-"));
    try {
      const file = path.join(dir, "plangate");
      fs.writeFileSync(file, body, { mode: 0o755 });
      for (const args of [
        ["hook", "gemini", "--help"],
        ["hook", "codex", "--help"],
        ["connect", "gemini", "--help"],
      ]) {
        const r = spawnSync(process.execPath, [file, ...args], {
          cwd: dir,
          encoding: "utf8",
          // Nothing from this checkout: no NODE_PATH, no tsx.
          env: { PATH: process.env.PATH ?? "" } as unknown as NodeJS.ProcessEnv,
        });
        expect(`${r.status} ${r.stdout}${r.stderr}`).toMatch(/usage: plangate/);
      }
      const hook = spawnSync(process.execPath, [file, "hook", "gemini", "--help"], { cwd: dir, encoding: "utf8" });
      expect(hook.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is the only file there: other names are 404, and it takes no writes", async () => {
    // Each answer read to its end, so that no connection is left busy when the server stops.
    const other = await fetch(`${server.url}/cli/other.mjs`);
    await other.arrayBuffer();
    expect(other.status).toBe(404);
    const post = await fetch(`${server.url}/cli/plangate.mjs`, { method: "POST" });
    await post.arrayBuffer();
    expect(post.status).toBeGreaterThanOrEqual(400);
  });
});
