import { notifyChoicesSchema } from "@/lib/notify/rules/notify-policy";

/** PUT /api/me/notifications: {email: boolean, events: ("waiting" | "reminder" | "decided" | "verification")[]}. */
export const notificationsBody = notifyChoicesSchema;
