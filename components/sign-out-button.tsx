"use client";

import { postJson } from "./post-json";

/** Ends this browser's sign-in session (the server deletes it) and goes to the sign-in page. */
export function SignOutButton() {
  return (
    <button
      type="button"
      data-testid="sign-out"
      className="text-sm"
      onClick={async () => {
        await postJson("/api/auth/sign-out", {});
        window.location.assign("/sign-in");
      }}
    >
      Sign out
    </button>
  );
}
