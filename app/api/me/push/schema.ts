export { pushSubscriptionBody } from "@/lib/notify/manage-push";
