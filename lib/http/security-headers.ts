import answerHeaders from "./answer-headers.json";
// Nothing may frame or sniff an answer, send a referrer, or reach the camera; pages and the API alike. In JSON
// because next.config.mjs (plain JavaScript, so `next start` needs no TypeScript compiler) reads it too.
const EVERY_ANSWER: Record<string, string> = answerHeaders.everyAnswer;

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
    // The service worker that shows pushed notices (issue 46), and the app's manifest: this origin's only.
    "worker-src 'self'",
    "manifest-src 'self'",
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
 * What every API answer carries (set by next.config.mjs for /api/*, which the proxy does not see): JSON and event
 * streams load and run nothing, and nothing may frame them.
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": answerHeaders.apiContentSecurityPolicy,
  ...EVERY_ANSWER,
};
