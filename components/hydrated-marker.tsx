"use client";

import { useEffect } from "react";

/** Marks the document once React has hydrated it (the page answers clicks): what the page benchmark waits for. */
export function HydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "1";
  }, []);
  return null;
}
