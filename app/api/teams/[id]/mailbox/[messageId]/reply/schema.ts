// `from` says who answers (a session id); a person using the mailbox page answers as the lead.
// The lead's card is the session's card: a mode for the teammate, an edited plan, a review with threads.
export { mailReplyBody } from "@/lib/review/parse-decision";
