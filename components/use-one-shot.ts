"use client";

import { useCallback, useRef, useState } from "react";
import { postJson } from "./post-json";

/**
 * A one-shot latch for a decision: the first call sends, later calls (a double click, a key repeat) are
 * dropped; a failed send re-arms and exposes the server's message.
 */
export function useOneShot(onSent: () => void) {
  const latched = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = useCallback(
    async (url: string, body: unknown) => {
      if (latched.current) return;
      latched.current = true;
      setBusy(true);
      setError(null);
      const result = await postJson(url, body);
      if (!result.ok) {
        latched.current = false;
        setBusy(false);
        setError(result.message);
        return;
      }
      onSent();
    },
    [onSent],
  );
  return { send, busy, error };
}
