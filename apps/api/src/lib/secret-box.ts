import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts small secrets kept in the database (a bank account number) with AES-256-GCM under a
 * key derived from AUTH_SECRET by HKDF, one key per purpose. `context` (e.g. the business and
 * account ids) is bound as associated data, so a ciphertext copied to another row does not open.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url parts.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';

export function createSecretBox(secret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'tay-secret-box', `${purpose}:${VERSION}`, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, iv, ciphertext, tag] = sealed.split('.');
      if (version !== VERSION || !iv || ciphertext === undefined || !tag) throw new Error('Unrecognised sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
