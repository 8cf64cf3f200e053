/**
 * The AES-GCM associated data of a receiver's sealed account number (the bank accounts' secret
 * box, `bankAccountNumberBox`): the ciphertext opens only on its own receiver's row (ADR 035).
 */
export function receiverAccountContext(businessId: string, receiverId: string): string {
  return `${businessId}:receiver:${receiverId}`;
}
