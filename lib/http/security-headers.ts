// Nothing may frame or sniff an answer, send a referrer, or reach the camera; pages and the API alike.
const EVERY_ANSWER: Record<string, string> = {
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/**
 * The headers every page and API answer carries. Scripts run only from this origin with this response's nonce
 * (Next puts it on the scripts it renders), nothing may frame the page (an Approve button in someone else's
 * frame is a click away from a decision), and no markup the model wrote can load or run anything.
 */
export function securityHeaders(dev: boolean): { nonce: string; csp: string; response: Record<string, string> } {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    nonce,
    csp,
    response: { "Content-Security-Policy": csp, ...EVERY_ANSWER },
  };
}

/**
 * What every API answer carries (set by next.config.ts for /api/*, which the proxy does not see): JSON and event
 * streams load and run nothing, and nothing may frame them.
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  ...EVERY_ANSWER,
};
