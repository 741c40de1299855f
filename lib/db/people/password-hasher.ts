import { hashPassword, verifyPassword } from "better-auth/crypto";

/** One hasher: the hash Plangate writes (people.ts) is the one better-auth's sign-in checks (lib/auth/better-auth.ts). */
export const passwordHasher = { hash: hashPassword, verify: verifyPassword };
