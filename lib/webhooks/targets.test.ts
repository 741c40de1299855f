import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { displayUrl } from "./list-deliveries";
import { signBody, verifySignature } from "./sign";
import { webhookTargets, workspaceUrlRefusal } from "./targets";

const SECRET = "0123456789abcdef-secret";
const env = (hosts: string[], secret: string | null = SECRET, webhooks: string[] = []) => ({
  webhooks,
  webhookHosts: hosts,
  PLANGATE_WEBHOOK_SECRET: secret ?? undefined,
});

describe("which URLs a plan event goes to", () => {
  it("a workspace hook reaches only a host the server lists (a name: its default port only; name:port: that port), never with credentials or another scheme", () => {
    const e = env(["hooks.example.com", "127.0.0.1:9000"]);
    expect(workspaceUrlRefusal("https://hooks.example.com/plangate", e)).toBeNull();
    expect(workspaceUrlRefusal("https://HOOKS.example.com:443/x", e)).toBeNull();
    expect(workspaceUrlRefusal("http://hooks.example.com/x", e)).toBeNull();
    // A name listed without a port is not every port of that host (an internal service on it, say).
    expect(workspaceUrlRefusal("https://HOOKS.example.com:8443/x", e)).toMatch(
      /hooks.example.com:8443 is not in PLANGATE_WEBHOOK_HOSTS/,
    );
    expect(workspaceUrlRefusal("http://hooks.example.com:6379/", e)).toMatch(/not in PLANGATE_WEBHOOK_HOSTS/);
    expect(workspaceUrlRefusal("https://hooks.example.com:8443/x", env(["hooks.example.com:8443"]))).toBeNull();
    expect(workspaceUrlRefusal("http://127.0.0.1/x", e)).toMatch(/not in PLANGATE_WEBHOOK_HOSTS/);
    expect(workspaceUrlRefusal("http://127.0.0.1:9000/x", e)).toBeNull();
    expect(workspaceUrlRefusal("http://127.0.0.1:9001/x", e)).toMatch(
      /127.0.0.1:9001 is not in PLANGATE_WEBHOOK_HOSTS/,
    );
    expect(workspaceUrlRefusal("http://169.254.169.254/latest/meta-data/", e)).toMatch(/not in PLANGATE_WEBHOOK_HOSTS/);
    expect(workspaceUrlRefusal("http://hooks.example.com.evil.test/", e)).toMatch(/not in PLANGATE_WEBHOOK_HOSTS/);
    expect(workspaceUrlRefusal("http://user:pw@hooks.example.com/", e)).toMatch(/credentials/);
    expect(workspaceUrlRefusal("file:///etc/passwd", e)).toMatch(/http\(s\) URL/);
    expect(workspaceUrlRefusal("gopher://hooks.example.com/", e)).toMatch(/http\(s\) URL/);
    expect(workspaceUrlRefusal("/relative", e)).toMatch(/http\(s\) URL/);
    expect(workspaceUrlRefusal("https://hooks.example.com/", env(["hooks.example.com"], null))).toMatch(
      /PLANGATE_WEBHOOK_SECRET is not set/,
    );
    expect(workspaceUrlRefusal("https://hooks.example.com/", env([]))).toMatch(/not in PLANGATE_WEBHOOK_HOSTS/);
  });

  it("server hooks get every event; a workspace hook only those it lists; a URL named twice is called once, as the server's", () => {
    const config = {
      webhooks: [
        { url: "https://a.example/h", events: ["review.decided" as const] },
        { url: "https://srv.example/h" },
        { url: "http://10.0.0.1/admin" },
      ],
    };
    const e = env(["a.example"], SECRET, ["https://srv.example/h"]);
    expect(webhookTargets("review.asked", e, config, true)).toEqual([
      { url: "https://srv.example/h", source: "server" },
      { url: "http://10.0.0.1/admin", source: "workspace", refused: "host 10.0.0.1 is not in PLANGATE_WEBHOOK_HOSTS" },
    ]);
    expect(webhookTargets("review.decided", e, config, true).map((t) => [t.url, t.source, t.refused ?? null])).toEqual([
      ["https://srv.example/h", "server", null],
      ["https://a.example/h", "workspace", null],
      ["http://10.0.0.1/admin", "workspace", "host 10.0.0.1 is not in PLANGATE_WEBHOOK_HOSTS"],
    ]);
    expect(webhookTargets("verification.completed", env([]), {}, true)).toEqual([]);
    // Until a person trusted the config, its hooks are logged as refused, never called; the server's still are.
    expect(webhookTargets("review.decided", e, config, false).map((t) => [t.url, t.refused ?? null])).toEqual([
      ["https://srv.example/h", null],
      ["https://a.example/h", expect.stringMatching(/not trusted/)],
      ["http://10.0.0.1/admin", expect.stringMatching(/not trusted/)],
    ]);
  });
});

describe("webhook configuration and signatures", () => {
  it("the environment: server hooks need a secret; URLs and hosts are checked when the server starts", () => {
    const parsed = parseEnv({
      PLANGATE_WEBHOOKS: "https://a.example/h, http://127.0.0.1:9/x",
      PLANGATE_WEBHOOK_SECRET: SECRET,
      PLANGATE_WEBHOOK_HOSTS: "Hooks.Example.com,127.0.0.1:8080",
    });
    expect(parsed.webhooks).toEqual(["https://a.example/h", "http://127.0.0.1:9/x"]);
    expect(parsed.webhookHosts).toEqual(["hooks.example.com", "127.0.0.1:8080"]);
    expect(() => parseEnv({ PLANGATE_WEBHOOKS: "https://a.example/h" })).toThrow(
      /PLANGATE_WEBHOOK_SECRET: PLANGATE_WEBHOOKS needs a secret/,
    );
    expect(() => parseEnv({ PLANGATE_WEBHOOKS: "ftp://a.example/h", PLANGATE_WEBHOOK_SECRET: SECRET })).toThrow(
      /PLANGATE_WEBHOOKS/,
    );
    expect(() => parseEnv({ PLANGATE_WEBHOOK_SECRET: "short" })).toThrow(/at least 16 characters/);
    expect(() => parseEnv({ PLANGATE_WEBHOOK_HOSTS: "https://a.example" })).toThrow(/PLANGATE_WEBHOOK_HOSTS/);
    expect(parseEnv({}).webhooks).toEqual([]);
  });

  it("X-Plangate-Signature is the hex HMAC-SHA256 of the raw body; any change to body or secret fails it", () => {
    const body = '{"deliveryId":"whd_1","type":"review.asked"}';
    const sig = signBody(SECRET, body);
    // Known value: computed independently with `printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET"`.
    expect(sig).toBe("sha256=96b0851df40f315a7dbe6fc3d078720c130ecf6c4b755c0cdfb059541da768f3");
    expect(verifySignature(SECRET, body, sig)).toBe(true);
    expect(verifySignature(SECRET, `${body} `, sig)).toBe(false);
    expect(verifySignature(`${SECRET}x`, body, sig)).toBe(false);
    expect(verifySignature(SECRET, body, undefined)).toBe(false);
    expect(verifySignature(SECRET, body, "sha256=00")).toBe(false);
  });

  it("the log shows a URL without credentials or query string (a hook's token often lives there)", () => {
    expect(displayUrl("https://u:p@hooks.example.com/a/b?token=s3cret")).toBe("https://hooks.example.com/a/b?…");
    expect(displayUrl("http://127.0.0.1:9000/hook")).toBe("http://127.0.0.1:9000/hook");
  });
});
