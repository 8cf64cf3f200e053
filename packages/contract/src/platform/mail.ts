import { z } from 'zod';

export const OutboxMessage = z.object({
  id: z.string(),
  /** An e-mail, or a text message (`to` is then a mobile number, `subject` empty). */
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

export const OutboxQuery = z.object({
  to: z.string().trim().min(1).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const OutboxResponse = z.array(OutboxMessage);
