"use client";

import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/client";

function makeClient() {
  return createAuthClient({ plugins: [passkeyClient()] });
}

let client: ReturnType<typeof makeClient> | undefined;

/**
 * better-auth's browser client, used only for its passkey ceremonies (the WebAuthn calls and the two requests
 * around each). Made on first use, in the browser, so it takes this page's own origin as its base URL.
 */
export function passkeyAuth(): ReturnType<typeof makeClient> {
  client ??= makeClient();
  return client;
}
