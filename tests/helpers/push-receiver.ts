// A push service for the notification suites (issue 46): it takes Web Push requests as a browser's push service does,
// checks the VAPID JWT (ES256, signed by the key in `k`, for this origin, not expired) and decrypts the aes128gcm
// payload with the device's own keys (http_ece, the scheme's reference implementation), or refuses.
import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import { execFileSync } from "node:child_process";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { whenEmitted } from "./poll";

export type Pushed = {
  device: string;
  payload: Record<string, unknown>;
  ttl: string | undefined;
  urgency: string | undefined;
};
export type Device = { id: string; endpoint: string; keys: { p256dh: string; auth: string } };

export type PushReceiver = {
  origin: string;
  received: Pushed[];
  refused: { device: string; reason: string }[];
  /** A new device: its subscription, as PushManager.subscribe() would give it. */
  device(): Device;
  /** Devices whose push service answers 410 Gone from now on. */
  gone: Set<string>;
  waitFor(count: number, timeoutMs?: number): Promise<Pushed[]>;
  close(): Promise<void>;
};

const b64u = (b: Buffer) => b.toString("base64url");

function checkVapid(header: string | undefined, origin: string, vapidPublicKey: string): string | null {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return "no vapid Authorization";
  const [, jwt = "", k = ""] = m;
  if (k !== vapidPublicKey) return "k is not the server's VAPID public key";
  const [h = "", c = "", s = ""] = jwt.split(".");
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: "jwk",
  });
  if (!verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s, "base64url")))
    return "the JWT's signature does not verify";
  const header_ = JSON.parse(Buffer.from(h, "base64url").toString()) as { alg?: string };
  const claims = JSON.parse(Buffer.from(c, "base64url").toString()) as { aud?: string; exp?: number; sub?: string };
  if (header_.alg !== "ES256") return "not ES256";
  if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`;
  const now = Date.now() / 1000;
  if (!claims.exp || claims.exp < now || claims.exp > now + 24 * 3600) return "exp out of range";
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) return "sub is not mailto: or https:";
  return null;
}

/** A throwaway certificate for 127.0.0.1: push services speak https only, and web-push calls nothing else. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-push-tls-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"],
      ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
    ],
    { stdio: "ignore" },
  );
  const out = { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

export async function startPushReceiver(vapidPublicKey: string): Promise<PushReceiver> {
  const received: Pushed[] = [];
  const refused: { device: string; reason: string }[] = [];
  const keys = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const gone = new Set<string>();
  const events = new EventEmitter();
  let origin = "";
  const server = https.createServer(selfSigned(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const id = (req.url ?? "").replace(/^\/push\//, "");
      const device = keys.get(id);
      const refuse = (status: number, reason: string) => {
        refused.push({ device: id, reason });
        res.writeHead(status).end(reason);
      };
      if (!device) return refuse(404, "no such subscription");
      if (gone.has(id)) return refuse(410, "gone");
      const why = checkVapid(req.headers.authorization, origin, vapidPublicKey);
      if (why) return refuse(403, why);
      if (req.headers["content-encoding"] !== "aes128gcm") return refuse(400, "not aes128gcm");
      let text: string;
      try {
        text = ece
          .decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: device.ecdh, authSecret: device.auth })
          .toString("utf8");
      } catch (error) {
        return refuse(400, `cannot decrypt: ${(error as Error).message}`);
      }
      received.push({
        device: id,
        payload: JSON.parse(text) as Record<string, unknown>,
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
      });
      events.emit("push");
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    origin,
    received,
    refused,
    gone,
    device() {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = `d${++n}`;
      keys.set(id, { ecdh, auth });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    waitFor: (count, timeoutMs = 15_000) =>
      whenEmitted(
        events,
        "push",
        () => received.length >= count,
        () => received,
        () => `${count} pushes, got ${received.length} (refused: ${JSON.stringify(refused)})`,
        timeoutMs,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
