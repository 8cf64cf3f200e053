import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, renderAt } from '../../../test/page-harness';
import { LoginPage } from './login-page';

let fake: FakeApi;
beforeEach(() => {
  fake = new FakeApi();
  fake.install();
});
afterEach(() => vi.unstubAllGlobals());

const SIGN_IN = '/api/auth/sign-in/email';

/** Puts text into a field in one go (typing it key by key is slow on a busy machine). */
async function enter(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}
const user = { id: 'usr_1', email: 'maya@harbor.example', name: 'maya@harbor.example', emailVerified: true, mustChangePassword: false };

describe('LoginPage', () => {
  it('names each empty field, focuses the first, and sends nothing', async () => {
    renderAt('/login', { '/login': <LoginPage /> });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username cannot be empty')).toBeInTheDocument();
    expect(screen.getByText('Password cannot be empty')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toHaveFocus();
    expect(fake.callsTo('POST', SIGN_IN)).toHaveLength(0);
  });

  it('checks the fields again as they change once a sign-in was tried', async () => {
    renderAt('/login', { '/login': <LoginPage /> });
    await enter(screen.getByLabelText('E-mail address'), 'maya@');
    expect(screen.queryByText('Enter your e-mail address, like name@example.com.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address, like name@example.com.')).toBeInTheDocument();
    await enter(screen.getByLabelText('E-mail address'), 'harbor.example');
    await waitFor(() => expect(screen.queryByText('Enter your e-mail address, like name@example.com.')).not.toBeInTheDocument());
    expect(screen.getByText('Password cannot be empty')).toBeInTheDocument();
    await enter(screen.getByLabelText('Password', { exact: true }), 'x');
    await waitFor(() => expect(screen.queryByText('Password cannot be empty')).not.toBeInTheDocument());
  });

  it('signs in with the address trimmed and goes to the setup', async () => {
    fake.on('POST', SIGN_IN, { json: { user }, headers: { 'content-type': 'application/json', 'set-auth-token': 'tok_1' } });
    renderAt('/login', { '/login': <LoginPage />, '/business/setup': <p>Setup</p> });
    await enter(screen.getByLabelText('E-mail address'), '  maya@harbor.example ');
    await enter(screen.getByLabelText('Password', { exact: true }), 'Harbor-Password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Setup')).toBeInTheDocument();
    expect(fake.callsTo('POST', SIGN_IN).map((c) => c.body)).toEqual([{ email: 'maya@harbor.example', password: 'Harbor-Password-1' }]);
  });

  it('says why a sign-in was refused', async () => {
    fake.on('POST', SIGN_IN, { status: 401, json: { status: 'Error', errorDetails: { code: 'INVALID_CREDENTIALS', message: 'Invalid e-mail or password.' } } });
    renderAt('/login', { '/login': <LoginPage /> });
    await enter(screen.getByLabelText('E-mail address'), 'maya@harbor.example');
    await enter(screen.getByLabelText('Password', { exact: true }), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid e-mail or password.', { exact: false })).toBeInTheDocument();
  });
});
