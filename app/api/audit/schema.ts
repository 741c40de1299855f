// The page /audit reads the log with the same filters, so the schema lives beside readAudit.
export { auditQuery } from "@/lib/auth/read-audit";
