import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApiPerTest, renderAt } from '../../../test/page-harness';
import { secretOf, SecurityPage } from './security-page';

const PAGE = '/business/settings/security';
const fake = fakeApiPerTest();
const URI = 'otpauth://totp/Tay:owner%40biz.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Tay';
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
const session = (twoFactorEnabled: boolean) => ({
  user: { id: 'usr_1', email: 'owner@biz.example', name: 'owner@biz.example', emailVerified: true, mustChangePassword: false, twoFactorEnabled },
  session: { id: 'ses_1' },
});

describe('the Security page', { timeout: 30_000 }, () => {
  it('shows the secret as text in groups of four', () => {
    expect(secretOf(URI)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
  });

  it('turns the authenticator app on: the password, the QR code, the key, the recovery codes once, then the first code', async () => {
    const u = userEvent.setup();
    let enabled = false;
    fake.on('GET', '/api/auth/get-session', () => ({ json: session(enabled) }));
    fake.on('POST', '/api/auth/two-factor/enable', (call) =>
      (call.body as { password: string }).password === 'right-password'
        ? { json: { method: 'totp', totpURI: URI, backupCodes: CODES }, headers: { 'content-type': 'application/json', 'set-auth-token': 'new.tok' } }
        : apiError(400, 'INVALID_PASSWORD', 'The password is not right.'),
    );
    fake.on('POST', '/api/auth/two-factor/verify-totp', (call) => {
      if ((call.body as { code: string }).code !== '123456') return apiError(401, 'INVALID_CODE', 'That code is not right.');
      enabled = true;
      return { json: { token: 'tok', user: session(true).user } };
    });
    renderAt(PAGE, { [PAGE]: <SecurityPage /> });
    const card = await screen.findByRole('region', { name: 'Authenticator app' });
    await waitFor(() => expect(within(card).getByText('Off')).toBeInTheDocument());
    await u.click(within(card).getByRole('button', { name: 'Set up an authenticator app' }));
    const prompt = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    await u.type(within(prompt).getByLabelText('Your password'), 'wrong');
    await u.click(within(prompt).getByRole('button', { name: 'Continue' }));
    expect(await within(prompt).findByText('The password is not right.')).toBeInTheDocument();
    await u.clear(within(prompt).getByLabelText('Your password'));
    await u.type(within(prompt).getByLabelText('Your password'), 'right-password');
    await u.click(within(prompt).getByRole('button', { name: 'Continue' }));

    const form = await screen.findByRole('form', { name: 'Set up the authenticator app' });
    expect(await within(form).findByRole('img', { name: 'QR code of your authenticator secret' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(form).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    const codes = within(form).getByRole('region', { name: 'Recovery codes' });
    for (const code of CODES) expect(codes).toHaveTextContent(code);
    // Enabling replaced the session: the new token is kept.
    expect(window.localStorage.getItem('tay.identityToken')).toBe('new.tok');

    await u.type(within(form).getByLabelText('Authentication code'), '000000');
    await u.click(within(form).getByRole('button', { name: 'Turn on' }));
    expect(await within(form).findByText('That code is not right.')).toBeInTheDocument();
    await u.clear(within(form).getByLabelText('Authentication code'));
    await u.type(within(form).getByLabelText('Authentication code'), '123456');
    await u.click(within(form).getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Signing in now asks for a code from the app.')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByText('On')).toBeInTheDocument());
    expect(within(card).queryByRole('region', { name: 'Recovery codes' })).toBeNull();
  });

  it('when on, makes new recovery codes and turns off, each with the password', async () => {
    const u = userEvent.setup();
    let enabled = true;
    fake.on('GET', '/api/auth/get-session', () => ({ json: session(enabled) }));
    fake.on('POST', '/api/auth/two-factor/generate-backup-codes', { json: { status: true, backupCodes: CODES } });
    fake.on('POST', '/api/auth/two-factor/disable', () => {
      enabled = false;
      return { json: { status: true } };
    });
    renderAt(PAGE, { [PAGE]: <SecurityPage /> }, { sessionUser: { twoFactorEnabled: true } });
    const card = await screen.findByRole('region', { name: 'Authenticator app' });
    await waitFor(() => expect(within(card).getByText('On')).toBeInTheDocument());
    await u.click(within(card).getByRole('button', { name: 'New recovery codes' }));
    const prompt = await screen.findByRole('dialog', { name: 'New recovery codes' });
    await u.type(within(prompt).getByLabelText('Your password'), 'pw');
    await u.click(within(prompt).getByRole('button', { name: 'Make new codes' }));
    expect(await within(card).findByText('The codes you had before no longer work.')).toBeInTheDocument();
    expect(fake.callsTo('POST', '/api/auth/two-factor/generate-backup-codes')[0]!.body).toEqual({ password: 'pw' });

    await u.click(within(card).getByRole('button', { name: 'Turn off' }));
    const off = await screen.findByRole('dialog', { name: 'Turn off the authenticator app?' });
    await u.type(within(off).getByLabelText('Your password'), 'pw');
    await u.click(within(off).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Signing in asks for your password only. Trusted devices were forgotten.')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByText('Off')).toBeInTheDocument());
  });

  it('lists the signed-in devices, this one marked, and signs another or all others out', async () => {
    const u = userEvent.setup();
    const device = (sessionId: string, name: string, current: boolean) => ({
      sessionId,
      device: name,
      ipAddress: '203.0.113.9',
      network: 'public',
      signedInAt: '2026-12-01T10:00:00.000Z',
      lastActiveAt: '2026-12-07T10:00:00.000Z',
      current,
    });
    fake.on('GET', '/api/user/sessions', {
      json: { status: 'Success', data: { items: [device('ses_1', 'Chrome on macOS', true), device('ses_2', 'Safari on iOS', false)] } },
    });
    fake.on('DELETE', '/api/user/sessions/ses_2', { json: { status: 'Success', data: { revoked: 1 } } });
    fake.on('POST', '/api/user/sessions/revoke-others', { json: { status: 'Success', data: { revoked: 1 } } });
    renderAt(PAGE, { [PAGE]: <SecurityPage /> });
    const devices = await screen.findByRole('region', { name: 'Signed-in devices' });
    const mine = (await within(devices).findByText('Chrome on macOS')).closest('tr')!;
    expect(within(mine).getByText('This device')).toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: /Sign out/ })).toBeNull();
    const phone = within(devices).getByText('Safari on iOS').closest('tr')!;
    expect(phone).toHaveTextContent('203.0.113.9');
    await u.click(within(phone).getByRole('button', { name: /^Sign out Safari on iOS/ }));
    expect(await screen.findByText('Safari on iOS is signed out.')).toBeInTheDocument();
    expect(fake.callsTo('DELETE', '/api/user/sessions/ses_2')).toHaveLength(1);

    await u.click(within(devices).getByRole('button', { name: 'Sign out all other devices' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign out every other device?' });
    await u.click(within(confirm).getByRole('button', { name: 'Sign out the others' }));
    expect(await screen.findByText('1 other device is signed out.')).toBeInTheDocument();
    expect(fake.callsTo('POST', '/api/user/sessions/revoke-others')).toHaveLength(1);
  });
});
