import { parseArgs } from 'node:util';
import { formatDateTime } from '@tay/contract';
import { temporaryPasswordEmail } from '../auth/emails';
import { bankAccountNumberBox } from '../domain/businesses/add-bank-account';
import { approveBusiness } from '../domain/businesses/approve-business';
import { OPERATIONS_ACTOR } from '../domain/businesses/audit';
import { findBusinessForOperator } from '../domain/businesses/find-business-for-operator';
import { resealBankAccounts } from '../domain/businesses/reseal-bank-accounts';
import { resealReceiverAccounts } from '../domain/receivers/reseal-receivers';
import { setBusinessState } from '../domain/businesses/set-business-state';
import { setPayouts } from '../domain/businesses/set-payouts';
import { createUserByOperator } from '../domain/users/create-user-by-operator';
import { resealTwoFactors } from '../domain/users/reseal-two-factors';
import { AppError } from '../lib/app-error';
import { authSecretsOf } from '../lib/secret-box';
import type { Runtime } from '../runtime';

interface Command {
  usage: string;
  summary: string;
  run(runtime: Runtime, args: string[]): Promise<void>;
}

/** Operator commands: `npm run ops -- <command> [options]`. */
export const COMMANDS: Record<string, Command> = {
  'create-user': {
    usage: 'create-user --email <address> [--first-name <name>] [--last-name <name>]',
    summary: 'Create a confirmed user with a temporary password they must replace at first sign-in',
    async run(runtime, args) {
      const { values } = parseArgs({
        args,
        options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
      });
      if (!values.email) throw new AppError('USAGE', 'Missing --email <address>.');
      const created = await createUserByOperator({
        db: runtime.database.db,
        email: values.email,
        firstName: values['first-name'],
        lastName: values['last-name'],
      });
      await runtime.mailer.send(temporaryPasswordEmail({ to: created.email, publicUrl: runtime.config.publicUrl }));
      console.log(
        [
          created.reissued ? `New temporary password issued for ${created.email}.` : `Created ${created.email} (${created.userId}).`,
          `Temporary password: ${created.temporaryPassword}`,
          `It works until ${formatDateTime(created.expiresAt)}; at first sign-in they must choose their own password.`,
          'Give it to them through a channel other than e-mail.',
        ].join('\n'),
      );
    },
  },
  // Business review and payouts: only operations approve, disable and turn payouts on (docs/product.md §4).
  'approve-business': businessCommand('approve-business', 'Approve a submitted (Pending) business', async (runtime, businessId) => {
    const { business, from } = await approveBusiness({
      db: runtime.database.db,
      businessId,
      actor: OPERATIONS_ACTOR,
      mail: { mailer: runtime.mailer, publicUrl: runtime.config.publicUrl },
    });
    return `Approved ${business.businessName} (${business.businessId}): ${from} → Approved.`;
  }),
  'disable-business': {
    usage: 'disable-business <business id | owner e-mail> [--reason "<why>"]',
    summary: 'Disable an approved business, or decline a Pending one; the reason is shown to the business',
    async run(runtime, args) {
      const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
      const target = await targetBusiness(runtime, positionals, 'disable-business <business id | owner e-mail> [--reason "<why>"]');
      const { business, from } = await setBusinessState({
        db: runtime.database.db,
        businessId: target.id,
        to: 'Disabled',
        reason: values.reason,
        actor: OPERATIONS_ACTOR,
        mail: { mailer: runtime.mailer, publicUrl: runtime.config.publicUrl },
      });
      console.log(
        `Disabled ${business.businessName} (${business.businessId}): ${from} → Disabled.` + (business.stateReason ? ` Reason: ${business.stateReason}` : ''),
      );
    },
  },
  'enable-business': businessCommand('enable-business', 'Enable a disabled business again (Disabled → Approved)', async (runtime, businessId) => {
    const { business, from } = await setBusinessState({
      db: runtime.database.db,
      businessId,
      to: 'Approved',
      actor: OPERATIONS_ACTOR,
      mail: { mailer: runtime.mailer, publicUrl: runtime.config.publicUrl },
    });
    return `Enabled ${business.businessName} (${business.businessId}): ${from} → Approved.`;
  }),
  'enable-payouts': businessCommand('enable-payouts', 'Turn payouts on for an approved business', async (runtime, businessId) => {
    const { business, changed } = await setPayouts({ db: runtime.database.db, businessId, enabled: true, actor: OPERATIONS_ACTOR });
    return changed
      ? `Payouts are now on for ${business.businessName} (${business.businessId}).`
      : `Payouts were already on for ${business.businessName} (${business.businessId}); nothing changed.`;
  }),
  'disable-payouts': businessCommand('disable-payouts', 'Turn payouts off for a business', async (runtime, businessId) => {
    const { business, changed } = await setPayouts({ db: runtime.database.db, businessId, enabled: false, actor: OPERATIONS_ACTOR });
    return changed
      ? `Payouts are now off for ${business.businessName} (${business.businessId}).`
      : `Payouts were already off for ${business.businessName} (${business.businessId}); nothing changed.`;
  }),
  'reseal-secrets': {
    usage: 'reseal-secrets',
    summary:
      "After changing AUTH_SECRET: encrypt every stored bank account number (settlement accounts and receivers') and every authenticator secret and recovery code again under the new secret (ADR 018, 052)",
    async run(runtime, args) {
      parseArgs({ args, options: {} });
      const secretBox = bankAccountNumberBox(authSecretsOf(runtime.config));
      const accounts = await resealBankAccounts({ db: runtime.database.db, secretBox });
      console.log(`Bank account numbers: ${accounts.resealed} encrypted again under the current AUTH_SECRET, ${accounts.current} already under it.`);
      const receivers = await resealReceiverAccounts({ db: runtime.database.db, secretBox });
      console.log(`Receivers' account numbers: ${receivers.resealed} encrypted again under the current AUTH_SECRET, ${receivers.current} already under it.`);
      const twoFactors = await resealTwoFactors({ db: runtime.database.db, secrets: authSecretsOf(runtime.config) });
      console.log(
        `Authenticator apps and recovery codes: ${twoFactors.resealed} encrypted again under the current AUTH_SECRET, ${twoFactors.current} already under it.`,
      );
      if (twoFactors.unreadable.length > 0) {
        console.error(
          `${twoFactors.unreadable.length} people's authenticator app and recovery codes could not be opened with AUTH_SECRET or AUTH_SECRET_PREVIOUS and were left as they are ` +
            `(user): ${twoFactors.unreadable.join(', ')}. Add the secret that encrypted them to AUTH_SECRET_PREVIOUS and run this again.`,
        );
        process.exitCode = 1;
      }
      const outcome = { unreadable: [...accounts.unreadable, ...receivers.unreadable] };
      if (outcome.unreadable.length > 0) {
        console.error(
          `${outcome.unreadable.length} could not be opened with AUTH_SECRET or AUTH_SECRET_PREVIOUS and were left as they are ` +
            `(business:account): ${outcome.unreadable.join(', ')}. Add the secret that encrypted them to AUTH_SECRET_PREVIOUS and run this again.`,
        );
        process.exitCode = 1;
        return;
      }
      console.log(
        'Pay links of requests sent before the change still need the earlier secret: keep it in AUTH_SECRET_PREVIOUS until they are paid, closed or resent.',
      );
    },
  },
};

/** The one business named by the first positional argument (an id or the owner's e-mail). */
async function targetBusiness(runtime: Runtime, positionals: string[], usageLine: string) {
  const [ref, ...extra] = positionals;
  if (!ref || extra.length > 0) throw new AppError('USAGE', `Usage: ${usageLine}`);
  return findBusinessForOperator({ db: runtime.database.db, ref });
}

function businessCommand(name: string, summary: string, run: (runtime: Runtime, businessId: string) => Promise<string>): Command {
  const usageLine = `${name} <business id | owner e-mail>`;
  return {
    usage: usageLine,
    summary,
    async run(runtime, args) {
      const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
      const target = await targetBusiness(runtime, positionals, usageLine);
      console.log(await run(runtime, target.id));
    },
  };
}

export function usage(): string {
  return ['Usage: npm run ops -- <command> [options]', '', ...Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`)].join('\n');
}
