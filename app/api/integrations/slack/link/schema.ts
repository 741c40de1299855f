export { slackLinkBody } from "@/lib/notify/link-slack";
