import type { MetadataRoute } from "next";

/** Plangate as an installable web app (issue 46): the desk opens full screen from a phone's home screen. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Plangate",
    short_name: "Plangate",
    description: "The desk every coding agent's plans go through.",
    start_url: "/desk",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#18181b",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
