import path from "node:path";
import { z } from "zod";
import { modelConfigError } from "./model/rules/model-name";

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|::1|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.trim());
}

/** A comma-separated variable as its non-empty items. */
export function listOf(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An absolute http(s) URL short enough to key a delivery on. */
export function isWebhookUrl(value: string): boolean {
  if (value.length > 2000 || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** Why an issuer URL will not do (null when it will): https, or http on loopback only; no query or fragment. */
export function oidcIssuerError(value: string): string | null {
  if (!URL.canParse(value)) return "PLANGATE_OIDC_ISSUER must be an http(s) URL";
  const url = new URL(value);
  if (url.search || url.hash) return "PLANGATE_OIDC_ISSUER must have no query or fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return null;
  return "PLANGATE_OIDC_ISSUER must be https (http only on loopback)";
}

const flag = z
  .enum(["0", "1", "true", "false", "open", "closed", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "open");

/** An optional http(s) URL; an empty value counts as unset. */
const httpUrl = (name: string) =>
  z
    .url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` })
    .optional()
    .or(z.literal("").transform(() => undefined));

const POOL_SIZE = "a whole number of connections, 1 to 1000";
/** A limit's whole number, 1 to max (an empty value counts as unset): a limit can be raised, never turned off. */
const attempts = (max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: `a whole number, 1 to ${max}` })
      .int(`a whole number, 1 to ${max}`)
      .min(1, `a whole number, 1 to ${max}`)
      .max(max, `a whole number, 1 to ${max}`)
      .default(fallback),
  );

export const envSchema = z
  .object({
    // Unset: the SQLite file plangate.db in PLANGATE_DATA_DIR (see parseEnv).
    DATABASE_URL: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v),
        "DATABASE_URL must be file:… (SQLite) or postgresql://… (PostgreSQL)",
      ),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    // Set by scripts/serve.mjs for its prepare step only: the descriptor that carries HOST and PORT back to it.
    PLANGATE_PREPARE_FD: z.literal("3").optional(),
    PLANGATE_TOKEN: z
      .string()
      .min(16, "PLANGATE_TOKEN must be at least 16 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // Signs sign-in cookies. Unset: a random one is made once and kept in the data folder (auth-secret, 0600).
    PLANGATE_AUTH_SECRET: z
      .string()
      .min(32, "PLANGATE_AUTH_SECRET must be at least 32 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // Rate limits (issue 41), counted in the database so every instance shares them: failed sign-ins per email
    // and per address, failed one-time link uses per address, tokens made per person, each per window (seconds).
    PLANGATE_LIMIT_WINDOW: attempts(86_400, 300),
    PLANGATE_LIMIT_SIGN_IN: attempts(1_000, 10),
    PLANGATE_LIMIT_ADDRESS: attempts(100_000, 50),
    PLANGATE_LIMIT_LINKS: attempts(100_000, 20),
    PLANGATE_LIMIT_TOKENS: attempts(1_000, 20),
    PLANGATE_WORKSPACE_ROOTS: z.string().optional(),
    PLANGATE_DATA_DIR: z.string().default("./data"),
    PLANGATE_MODEL: z.string().default("offline"),
    PLANGATE_ALLOW_SCRIPTED: flag,
    // Auto mode may approve asks only while this gate is open; it can also be closed at run time.
    PLANGATE_AUTO_GATE: z.enum(["open", "closed"]).default("open"),
    PLANGATE_ENABLE_BYPASS: flag,
    ANTHROPIC_API_KEY: z.string().optional(),
    // Without /v1, as for the Anthropic SDK and Claude Code (one ending in /v1 is accepted too).
    ANTHROPIC_BASE_URL: httpUrl("ANTHROPIC_BASE_URL"),
    OPENAI_API_KEY: z.string().optional(),
    // With /v1, as for the OpenAI SDK.
    OPENAI_BASE_URL: httpUrl("OPENAI_BASE_URL"),
    PLANGATE_BASE_URL: z.url().optional(),
    PLANGATE_API_KEY: z.string().optional(),
    // PostgreSQL connections per process (plus one for notifications): instances × this stays under max_connections.
    PLANGATE_PG_POOL: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number({ error: POOL_SIZE }).int(POOL_SIZE).min(1, POOL_SIZE).max(1_000, POOL_SIZE).default(10),
    ),
    // "off" runs commands without bubblewrap (then only a parsed read-only allowlist, or a person, lets one run).
    PLANGATE_SANDBOX: z
      .enum(["on", "off", ""], { error: 'must be "on" (the default) or "off"' })
      .default("on")
      .transform((v) => (v === "" ? "on" : v)),
    // Host names the server answers to besides IP literals, localhost and HOST (a reverse proxy's public name).
    PLANGATE_ALLOWED_HOSTS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || listOf(v).every((h) => /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?$/i.test(h)),
        "a comma-separated list of host names (no scheme, port or path)",
      ),
    // How long a dead instance's session stays claimed; its holder renews every third of it.
    PLANGATE_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
    // After an instance dies: "takeover" (another instance goes on with its turns) or "interrupt" (they wait for
    // a person to resume them). Default: takeover on PostgreSQL (a pool of instances), interrupt on SQLite.
    PLANGATE_FAILOVER: z.enum(["takeover", "interrupt"]).optional(),
    PLANGATE_MAX_STEPS: z.coerce.number().int().min(1).max(500).default(50),
    // A turn ends (cleanly, between steps) once its model requests have used this many tokens, input and output.
    PLANGATE_MAX_TURN_TOKENS: z.coerce.number().int().min(1).optional(),
    // Tries per model request when the provider fails in a way worth retrying (rate limit, overload, a cut
    // stream), and the first wait between them (doubled each time; a provider's retry-after wins).
    PLANGATE_MODEL_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
    PLANGATE_RETRY_BASE_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
    // Compaction starts when the conversation sent to the model grows past this many characters (~4 per token).
    PLANGATE_CONTEXT_CHARS: z.coerce.number().int().min(2_000).default(400_000),
    // Host folders every sandboxed command may read (toolchains outside /usr, e.g. ~/.cargo): the operator's choice.
    PLANGATE_SANDBOX_READ: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || v.split(path.delimiter).every((p) => p === "" || path.isAbsolute(p)),
        "every folder must be an absolute path",
      ),
    // Names of further environment variables passed into commands (the default passes only PATH, locale and terminal).
    PLANGATE_SANDBOX_ENV: z
      .string()
      .optional()
      .refine(
        (v) =>
          v === undefined || v.split(",").every((n) => n.trim() === "" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(n.trim())),
        "a comma-separated list of variable names",
      ),
    // Webhooks (docs/webhooks.md). The server's own hooks: trusted operator config, called for every plan event.
    PLANGATE_WEBHOOKS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || listOf(v).every(isWebhookUrl),
        "a comma-separated list of http(s) URLs (at most 2000 characters each)",
      ),
    // Single sign-on through OpenID Connect (README "People and sign-in"): off unless the issuer, client id and
    // secret are all set. The issuer must be https, except on loopback (a provider on the same machine, as in tests).
    PLANGATE_OIDC_ISSUER: z
      .url({ protocol: /^https?$/, error: "PLANGATE_OIDC_ISSUER must be an http(s) URL" })
      .optional()
      .or(z.literal("").transform(() => undefined)),
    PLANGATE_OIDC_CLIENT_ID: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    PLANGATE_OIDC_CLIENT_SECRET: z
      .string()
      .optional()
      .transform((v) => v || undefined),
    // The provider's name on the sign-in button ("Sign in with <name>").
    PLANGATE_OIDC_NAME: z
      .string()
      .max(60, "PLANGATE_OIDC_NAME must be at most 60 characters")
      .optional()
      .transform((v) => v?.trim() || undefined),
    PLANGATE_WEBHOOK_SECRET: z
      .string()
      .min(16, "PLANGATE_WEBHOOK_SECRET must be at least 16 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // The only hosts a workspace's own hooks may call: its config is untrusted, so it must not reach anything else.
    PLANGATE_WEBHOOK_HOSTS: z
      .string()
      .optional()
      .refine(
        (v) =>
          v === undefined || listOf(v).every((h) => /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(h)),
        "a comma-separated list of host names (host or host:port)",
      ),
    // Notifications (docs/notifications.md): email goes out only once the operator names an SMTP server and a sender.
    PLANGATE_SMTP_URL: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) =>
          v === undefined || (URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol) && new URL(v).hostname !== ""),
        "PLANGATE_SMTP_URL must be smtp://[user:pass@]host:port or smtps://…",
      ),
    PLANGATE_SMTP_FROM: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || /^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v),
        "PLANGATE_SMTP_FROM must be an address (plangate@example.com or Plangate <plangate@example.com>)",
      ),
    // Slack (docs/notifications.md): the app's bot token and signing secret, together; the API's address for a gateway.
    PLANGATE_SLACK_BOT_TOKEN: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || /^xox[a-z]-[A-Za-z0-9-]{8,}$/.test(v),
        "PLANGATE_SLACK_BOT_TOKEN must be a bot token (xoxb-…)",
      ),
    PLANGATE_SLACK_SIGNING_SECRET: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine((v) => v === undefined || v.length >= 16, "PLANGATE_SLACK_SIGNING_SECRET must be at least 16 characters"),
    PLANGATE_SLACK_API_URL: z
      .url({ protocol: /^https?$/, error: "PLANGATE_SLACK_API_URL must be an http(s) URL" })
      .default("https://slack.com/api")
      .or(z.literal("").transform(() => "https://slack.com/api")),
    // Web Push (docs/notifications.md): the server's VAPID key pair (npx web-push generate-vapid-keys) and a contact.
    PLANGATE_VAPID_PUBLIC_KEY: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || /^[A-Za-z0-9_-]{87}$/.test(v),
        "PLANGATE_VAPID_PUBLIC_KEY must be a VAPID public key (87 base64url characters)",
      ),
    PLANGATE_VAPID_PRIVATE_KEY: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || /^[A-Za-z0-9_-]{43}$/.test(v),
        "PLANGATE_VAPID_PRIVATE_KEY must be a VAPID private key (43 base64url characters)",
      ),
    PLANGATE_VAPID_SUBJECT: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(v),
        "PLANGATE_VAPID_SUBJECT must be mailto:you@example.com or an https URL",
      ),
    // Push services besides the browsers' own that devices may name (host, meaning port 443, or host:port; https).
    PLANGATE_PUSH_HOSTS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || listOf(v).every((h) => /^[a-z0-9.-]+(:\d{1,5})?$/i.test(h)),
        "a comma-separated list of host names (host or host:port)",
      ),
    // ntfy: the operator's server (or https://ntfy.sh) people pick a topic on, and its access token if it needs one.
    PLANGATE_NTFY_URL: httpUrl("PLANGATE_NTFY_URL"),
    PLANGATE_NTFY_TOKEN: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    // The address links in messages use (the desk as people reach it); unset: http://HOST:PORT.
    PLANGATE_PUBLIC_URL: httpUrl("PLANGATE_PUBLIC_URL"),
  })
  .superRefine((env, ctx) => {
    const vapid = [env.PLANGATE_VAPID_PUBLIC_KEY, env.PLANGATE_VAPID_PRIVATE_KEY, env.PLANGATE_VAPID_SUBJECT];
    if (vapid.some(Boolean) && !vapid.every(Boolean)) {
      const names = ["PLANGATE_VAPID_PUBLIC_KEY", "PLANGATE_VAPID_PRIVATE_KEY", "PLANGATE_VAPID_SUBJECT"];
      ctx.addIssue({
        code: "custom",
        path: [names[vapid.findIndex((v) => !v)] ?? "PLANGATE_VAPID_PUBLIC_KEY"],
        message:
          "Web Push needs PLANGATE_VAPID_PUBLIC_KEY, PLANGATE_VAPID_PRIVATE_KEY and PLANGATE_VAPID_SUBJECT together",
      });
    }
    if (Boolean(env.PLANGATE_SLACK_BOT_TOKEN) !== Boolean(env.PLANGATE_SLACK_SIGNING_SECRET))
      ctx.addIssue({
        code: "custom",
        path: [env.PLANGATE_SLACK_BOT_TOKEN ? "PLANGATE_SLACK_SIGNING_SECRET" : "PLANGATE_SLACK_BOT_TOKEN"],
        message: "Slack needs PLANGATE_SLACK_BOT_TOKEN and PLANGATE_SLACK_SIGNING_SECRET together",
      });
    if (Boolean(env.PLANGATE_SMTP_URL) !== Boolean(env.PLANGATE_SMTP_FROM))
      ctx.addIssue({
        code: "custom",
        path: [env.PLANGATE_SMTP_URL ? "PLANGATE_SMTP_FROM" : "PLANGATE_SMTP_URL"],
        message: "email needs PLANGATE_SMTP_URL and PLANGATE_SMTP_FROM together",
      });
    if (listOf(env.PLANGATE_WEBHOOKS ?? "").length > 0 && !env.PLANGATE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["PLANGATE_WEBHOOK_SECRET"],
        message: "PLANGATE_WEBHOOKS needs a secret to sign with (16+ characters)",
      });
    }
    const issuerError = env.PLANGATE_OIDC_ISSUER ? oidcIssuerError(env.PLANGATE_OIDC_ISSUER) : null;
    if (issuerError) ctx.addIssue({ code: "custom", path: ["PLANGATE_OIDC_ISSUER"], message: issuerError });
    const oidc = [env.PLANGATE_OIDC_ISSUER, env.PLANGATE_OIDC_CLIENT_ID, env.PLANGATE_OIDC_CLIENT_SECRET];
    // Half a configuration is a typo, not "SSO off": say so at boot instead of hiding the button.
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      const names = ["PLANGATE_OIDC_ISSUER", "PLANGATE_OIDC_CLIENT_ID", "PLANGATE_OIDC_CLIENT_SECRET"];
      ctx.addIssue({
        code: "custom",
        path: [names[oidc.findIndex((v) => !v)] ?? "PLANGATE_OIDC_ISSUER"],
        message:
          "single sign-on needs PLANGATE_OIDC_ISSUER, PLANGATE_OIDC_CLIENT_ID and PLANGATE_OIDC_CLIENT_SECRET together",
      });
    }
    const modelError = modelConfigError(env.PLANGATE_MODEL, env);
    if (modelError) ctx.addIssue({ code: "custom", path: ["PLANGATE_MODEL"], message: modelError });
    if (env.PLANGATE_MODEL === "scripted" && !env.PLANGATE_ALLOW_SCRIPTED) {
      ctx.addIssue({
        code: "custom",
        path: ["PLANGATE_MODEL"],
        message: "the scripted model needs PLANGATE_ALLOW_SCRIPTED=1",
      });
    }
    if (!isLoopbackHost(env.HOST) && !env.PLANGATE_TOKEN) {
      ctx.addIssue({
        code: "custom",
        path: ["PLANGATE_TOKEN"],
        message: `Refusing to listen on ${env.HOST} without PLANGATE_TOKEN: set a token (16+ characters) or use HOST=127.0.0.1`,
      });
    }
  });

export type Env = Omit<z.infer<typeof envSchema>, "DATABASE_URL"> & {
  /** The database: DATABASE_URL when set, else the SQLite file plangate.db in the data folder. */
  DATABASE_URL: string;
  /** Whether DATABASE_URL was set (false: the database follows PLANGATE_DATA_DIR). */
  databaseUrlSet: boolean;
  dataDir: string;
  workspaceRoots: string[];
  sandboxRead: string[];
  sandboxEnv: string[];
  webhooks: string[];
  webhookHosts: string[];
  allowedHosts: string[];
  /** Where links in notices point, without a trailing slash. */
  publicUrl: string;
  pushHosts: string[];
};

export class EnvError extends Error {
  override name = "EnvError";
}

/** Pure: validates a raw environment and resolves paths against cwd. */
export function parseEnv(raw: Record<string, string | undefined>, cwd = process.cwd()): Env {
  const result = envSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "env"}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const dataDir = path.resolve(cwd, env.PLANGATE_DATA_DIR);
  const workspaceRoots = (env.PLANGATE_WORKSPACE_ROOTS ?? path.join(dataDir, "workspaces"))
    .split(path.delimiter)
    .filter(Boolean)
    .map((p) => path.resolve(cwd, p));
  const sandboxRead = (env.PLANGATE_SANDBOX_READ ?? "").split(path.delimiter).filter(Boolean);
  const sandboxEnv = (env.PLANGATE_SANDBOX_ENV ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const webhooks = listOf(env.PLANGATE_WEBHOOKS ?? "");
  const webhookHosts = listOf(env.PLANGATE_WEBHOOK_HOSTS ?? "").map((h) => h.toLowerCase());
  const allowedHosts = listOf(env.PLANGATE_ALLOWED_HOSTS ?? "").map((h) => h.toLowerCase());
  const databaseUrlSet = env.DATABASE_URL !== undefined;
  const DATABASE_URL = env.DATABASE_URL ?? `file:${path.join(dataDir, "plangate.db")}`;
  const host = env.HOST === "127.0.0.1" || env.HOST === "0.0.0.0" ? "localhost" : env.HOST;
  const publicUrl = (
    env.PLANGATE_PUBLIC_URL ?? `http://${host.includes(":") ? `[${host}]` : host}:${env.PORT}`
  ).replace(/\/+$/, "");
  return {
    ...env,
    DATABASE_URL,
    databaseUrlSet,
    dataDir,
    workspaceRoots,
    sandboxRead,
    sandboxEnv,
    webhooks,
    webhookHosts,
    allowedHosts,
    publicUrl,
    pushHosts: listOf(env.PLANGATE_PUSH_HOSTS ?? "").map((h) => h.toLowerCase()),
  };
}

type EnvShape = (typeof envSchema)["shape"];

/**
 * One variable, checked by the same schema as at boot, for code that also runs outside the server (a script's
 * database connection, the sandbox probe of a test helper), where the rest of the environment need not be a
 * server's. A bad value is an EnvError naming the variable.
 */
export function envValue<K extends keyof EnvShape>(
  name: K,
  raw: Record<string, string | undefined> = process.env,
): z.output<EnvShape[K]> {
  const result = envSchema.shape[name].safeParse(raw[name]);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${name}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data as z.output<EnvShape[K]>;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change process.env between cases; this drops the memoised copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
