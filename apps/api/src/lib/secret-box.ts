import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts small secrets kept in the database (a bank account number) with AES-256-GCM under a
 * key derived from AUTH_SECRET by HKDF, one key per purpose. `context` (e.g. the business and
 * account ids) is bound as associated data, so a ciphertext copied to another row does not open.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url parts.
 *
 * After a rotation the box holds the earlier secrets too (AUTH_SECRET_PREVIOUS, ADR 018): it
 * seals under the current one and opens under any of them; GCM's tag tells which key fits.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Whether `sealed` opens under the current secret, so re-sealing it would change nothing. */
  isCurrent(sealed: string, context: string): boolean;
}

const VERSION = 'v1';

/** AUTH_SECRET, then the secrets it replaced (AUTH_SECRET_PREVIOUS, ADR 018): what opens and re-makes what they made. */
export function authSecretsOf(holder: { authSecret: string; previousAuthSecrets?: readonly string[] | undefined }): string[] {
  return [holder.authSecret, ...(holder.previousAuthSecrets ?? [])];
}

function decrypt(key: Buffer, sealed: string, context: string): string {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== VERSION || !iv || ciphertext === undefined || !tag) throw new Error('Unrecognised sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** `secrets`: the current secret, then any it replaced. */
export function createSecretBox(secrets: string | readonly string[], purpose: string): SecretBox {
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    Buffer.from(hkdfSync('sha256', secret, 'tay-secret-box', `${purpose}:${VERSION}`, 32)),
  );
  const current = keys[0];
  if (!current) throw new Error('A secret box needs a secret');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
    },
    open(sealed, context) {
      // The current key first; then the earlier ones, for a value sealed before a rotation. If
      // none fits, the current key's error (tampered, wrong context, not sealed) is the one thrown.
      let failure: unknown;
      for (const key of keys) {
        try {
          return decrypt(key, sealed, context);
        } catch (error) {
          failure ??= error;
        }
      }
      throw failure;
    },
    isCurrent(sealed, context) {
      try {
        decrypt(current, sealed, context);
        return true;
      } catch {
        return false;
      }
    },
  };
}
