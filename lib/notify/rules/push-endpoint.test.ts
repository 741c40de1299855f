import { createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPushEndpoint, pushEndpointError, pushKeysError } from "./push-endpoint";

// A device names where the server will POST: only the browsers' push services (or what the operator names) are taken.
describe("pushEndpointError", () => {
  it.each([
    ["https://fcm.googleapis.com/fcm/send/abc", [], null],
    ["https://updates.push.services.mozilla.com/wpush/v2/abc", [], null],
    ["https://wns2-par02p.notify.windows.com/w/?token=abc", [], null],
    ["https://web.push.apple.com/QGx", [], null],
    ["http://fcm.googleapis.com/fcm/send/abc", [], "https"],
    ["https://fcm.googleapis.com:8443/x", [], "own port"],
    ["https://fcm.googleapis.com.evil.test/x", [], "not a browser push service"],
    ["https://169.254.169.254/latest/meta-data", [], "not a browser push service"],
    ["https://localhost/x", [], "not a browser push service"],
    ["https://user:pw@fcm.googleapis.com/x", [], "no credentials"],
    // Hosts Node's older URL parser (web-push's) would cut short at the first odd character: refused, not narrowed.
    ["https://10.0.0.5;.fcm.googleapis.com/x", [], "plain DNS name"],
    ["https://169.254.169.254%2e.push.services.mozilla.com/", [], "plain DNS name"],
    ["https://attacker.com`x.push.apple.com/", [], "plain DNS name"],
    ["https://a'b.fcm.googleapis.com/", [], "plain DNS name"],
    ["https://127.0.0.1:4100/push/d1", ["127.0.0.1:4100"], null],
    ["https://127.0.0.1:4101/push/d1", ["127.0.0.1:4100"], "own port"],
    ["https://push.internal/x", ["push.internal"], null],
    ["https://push.internal:8443/x", ["push.internal"], "own port"],
    ["http://127.0.0.1:4100/push/d1", ["127.0.0.1:4100"], "https"],
    ["file:///etc/passwd", ["localhost"], "https"],
    ["not a url", [], "must be a URL"],
  ])("%s with %j", (endpoint, extra, problem) => {
    const got = pushEndpointError(endpoint, extra);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toContain(problem);
  });

  it("gives the endpoint as the server will call it", () => {
    expect(checkPushEndpoint("https://FCM.googleapis.com/fcm/send/a", [])).toEqual({
      href: "https://fcm.googleapis.com/fcm/send/a",
    });
  });
});

describe("pushKeysError", () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const good = ecdh.getPublicKey().toString("base64url");
  const auth = randomBytes(16).toString("base64url");
  it.each([
    ["a device's real keys", good, auth, null],
    ["65 bytes that are no point", Buffer.alloc(65, 4).toString("base64url"), auth, "not a point"],
    ["a compressed point", Buffer.alloc(33, 2).toString("base64url"), auth, "not a P-256 public key"],
    ["a short auth", good, randomBytes(8).toString("base64url"), "16 bytes"],
  ])("%s", (_name, p256dh, a, problem) => {
    const got = pushKeysError(p256dh, a);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toContain(problem);
  });
});
