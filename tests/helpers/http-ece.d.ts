// http_ece, the reference implementation of RFC 8188 that web-push uses, has no types of its own.
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  const ece: {
    decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: Buffer | string }): Buffer;
  };
  export default ece;
}
