"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./post-json";

/** Stops push to one of your devices (a lost phone, a browser you no longer use). */
export function RemoveDeviceButton({ id }: { id: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    const result = await sendJson("DELETE", `/api/me/push/${encodeURIComponent(id)}`);
    if (!result.ok) return setError(result.message);
    router.refresh();
  }
  return (
    <span className="ml-2">
      <button type="button" className="underline" data-testid="remove-device" onClick={remove}>
        Stop push
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
