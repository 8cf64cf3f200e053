import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RuleSubject } from '@tay/contract';
import type { DB } from '../db/schema';

/** A string the request carries at `key`, as it came (the inputs are not validated yet). */
function carried(part: unknown, key: string): string | undefined {
  const value = part && typeof part === 'object' ? (part as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads what a subject rule of the endpoint table reads (`RuleSubject` in
 * `packages/contract/src/common/endpoint.ts`), for the business the mount resolved: a field of the
 * query or body, or a record the path names in that business. Undefined when there is none.
 */
export async function readSubject(db: Kysely<DB>, subject: RuleSubject, request: FastifyRequest, businessId: string): Promise<string | undefined> {
  const params = request.params;
  switch (subject) {
    case 'query.kind':
      return carried(request.query, 'kind');
    case 'body.role':
      return carried(request.body, 'role');
    case 'batch.kind': {
      const batchId = carried(params, 'batchId');
      if (batchId === undefined) return undefined;
      const row = await db.selectFrom('batches').select('kind').where('business_id', '=', businessId).where('id', '=', batchId).executeTakeFirst();
      return row?.kind;
    }
    case 'member.role': {
      const userId = carried(params, 'userId');
      if (userId === undefined) return undefined;
      const row = await db.selectFrom('business_members').select('role').where('business_id', '=', businessId).where('user_id', '=', userId).executeTakeFirst();
      return row?.role;
    }
    case 'invitation.role': {
      const invitationId = carried(params, 'invitationId');
      if (invitationId === undefined) return undefined;
      // Only an open invitation: one accepted or withdrawn already is answered by the use case as it stands.
      const row = await db
        .selectFrom('business_invitations')
        .select('role')
        .where('business_id', '=', businessId)
        .where('id', '=', invitationId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row?.role;
    }
  }
}
