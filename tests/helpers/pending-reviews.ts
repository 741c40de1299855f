import { until } from "./poll";

type Api = (method: string, route: string) => Promise<{ status: number; body: any }>;
type Pending = { id: string; sessionId: string; payload: { version: number } };

/**
 * For a suite whose tests each leave reviews behind: `next(version)` waits for a pending review of that plan version
 * that no earlier call took (an outside agent's hook submits it while the agent runs).
 */
export function pendingReviews(api: Api, timeoutMs = 90_000) {
  const seen = new Set<string>();
  const fresh = (reviews: Pending[], version: number) =>
    reviews.find((x) => x.payload.version === version && !seen.has(x.id));
  return async (version: number): Promise<Pending> => {
    const r = await until(
      () => api("GET", "/api/reviews?status=pending"),
      (x) => fresh(x.body.reviews as Pending[], version) !== undefined,
      timeoutMs,
    );
    const review = fresh(r.body.reviews as Pending[], version) as Pending;
    seen.add(review.id);
    return review;
  };
}
