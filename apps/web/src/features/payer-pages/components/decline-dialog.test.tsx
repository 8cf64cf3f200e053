import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DeclineDialog } from './decline-dialog';

function renderDialog(onDecline: (reason: string) => Promise<unknown>) {
  return render(
    <MantineProvider env="test">
      <DeclineDialog opened businessName="Harbor Music" onClose={() => {}} onDecline={onDecline} />
    </MantineProvider>,
  );
}

describe('declining with a reason', () => {
  it('refuses to send without a reason, with a specific message, and sends nothing', async () => {
    const onDecline = vi.fn(() => Promise.resolve());
    renderDialog(onDecline);
    expect(screen.getByText('Harbor Music will see your reason.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Decline request' }));
    expect(await screen.findByText('Tell the business why you decline.')).toBeInTheDocument();
    // Blank space is no reason either.
    await userEvent.type(screen.getByRole('textbox', { name: /Tell the business why/ }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Decline request' }));
    expect(await screen.findByText('Tell the business why you decline.')).toBeInTheDocument();
    expect(onDecline).not.toHaveBeenCalled();
  });

  it('sends the reason, trimmed', async () => {
    const onDecline = vi.fn(() => Promise.resolve());
    renderDialog(onDecline);
    await userEvent.type(screen.getByRole('textbox', { name: /Tell the business why/ }), '  Already paid by cheque ');
    await userEvent.click(screen.getByRole('button', { name: 'Decline request' }));
    await waitFor(() => expect(onDecline).toHaveBeenCalledWith('Already paid by cheque'));
    expect(screen.queryByText('Tell the business why you decline.')).not.toBeInTheDocument();
  });

  it("shows the API's refusal in the dialog", async () => {
    const onDecline = vi.fn(() => Promise.reject(new Error('You have already paid part of this request, so it can no longer be declined.')));
    renderDialog(onDecline);
    await userEvent.type(screen.getByRole('textbox', { name: /Tell the business why/ }), 'Changed my mind');
    await userEvent.click(screen.getByRole('button', { name: 'Decline request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have already paid part of this request, so it can no longer be declined.');
  });
});
