// Plangate's service worker (issue 46): shows a pushed notice and, on a tap, opens the item on the desk. A notice
// carries no credential: the desk asks for the person's own sign-in. Only this origin's pages are ever opened.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" ? data.title : "Plangate";
  const url = typeof data.url === "string" ? data.url : "/desk";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      // One notice per item: a reminder or the decision replaces what the phone shows.
      tag: typeof data.tag === "string" ? data.tag : undefined,
      renotify: true,
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/desk", self.location.origin);
  const url = target.origin === self.location.origin ? target.href : new URL("/desk", self.location.origin).href;
  event.waitUntil(self.clients.openWindow(url));
});
