import { describe, expect, it } from 'vitest';
import { requestActions, RequestState, type RequestAction } from '@tay/contract';
import { requestGuidance } from './request-guidance';

const ALL: RequestAction[] = ['Edit', 'Copy', 'Delete', 'Cancel', 'Resend', 'Withdraw', 'View/Download'];
const WORDS: Record<RequestAction, RegExp> = {
  Edit: /\bedit\b/i,
  Copy: /\bcopy\b/i,
  Delete: /\bdelete\b/i,
  Cancel: /\bcancel it\b/i,
  Resend: /\bresend\b/i,
  Withdraw: /\bwithdraw it\b/i,
  'View/Download': /\breceipt\b/i,
};

describe('the detail view’s guidance', () => {
  it.each(RequestState.options)('for %s names exactly the actions requestActions gives', (state) => {
    const guidance = requestGuidance(state, 'Pat Payer');
    expect(guidance.actions).toEqual(requestActions(state));
    for (const action of ALL) {
      expect(WORDS[action].test(guidance.text), `${state}: ${action} in "${guidance.text}"`).toBe(requestActions(state).includes(action));
    }
  });

  it('does not offer a resend for a failed payment (Error can only be copied)', () => {
    const guidance = requestGuidance('Error', 'Pat Payer');
    expect(guidance.title).toBe('The last payment failed');
    expect(guidance.text).toBe(
      'Pat Payer can try again from the same link until it expires, or you can reach out to them. You can copy it into a new request.',
    );
  });

  it('lists several actions as a sentence', () => {
    expect(requestGuidance('Sent', 'Pat').text).toBe(
      'Pat has the link and has not paid yet. You can resend it with a new link, withdraw it so it can no longer be paid or copy it into a new request.',
    );
  });

  it('offers only the receipt to a person who may not change requests', () => {
    for (const state of RequestState.options) {
      const guidance = requestGuidance(state, 'Pat', false);
      const receipt = requestActions(state).includes('View/Download');
      expect(guidance.actions).toEqual(receipt ? ['View/Download'] : []);
      for (const action of ALL) {
        if (action !== 'View/Download') expect(WORDS[action].test(guidance.text), `${state}: ${action} in "${guidance.text}"`).toBe(false);
      }
      expect(/\bYou can /.test(guidance.text)).toBe(receipt);
    }
  });

  it('for a request that collects an invoice offers no Edit (the invoice is edited instead) and says which invoice', () => {
    const guidance = requestGuidance('Pending', 'Pat', true, 'INV-0009');
    expect(guidance.actions).toEqual(requestActions('Pending').filter((a) => a !== 'Edit'));
    expect(guidance.text).toContain('It collects invoice INV-0009.');
    expect(WORDS.Edit.test(guidance.text)).toBe(false);
  });

  it.each(RequestState.options)(
    'for a payment through a QR code in %s offers only what requestActions(state, true) gives: never Copy, Resend or Edit',
    (state) => {
      const guidance = requestGuidance(state, 'Walk-in payer', true, null, true);
      expect(guidance.actions).toEqual(requestActions(state, true));
      for (const action of ALL) {
        expect(WORDS[action].test(guidance.text), `${state}: ${action} in "${guidance.text}"`).toBe(requestActions(state, true).includes(action));
      }
    },
  );

  it('says a paid QR payment came through a code, and offers its receipt', () => {
    expect(requestGuidance('Paid', 'Walk-in payer', true, null, true)).toEqual({
      title: 'Paid in full',
      text: 'Paid through a QR code; nothing remains to pay. You can view or download the receipt.',
      color: 'teal',
      actions: ['View/Download'],
    });
  });
});
