import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PayerImportPreview } from '@tay/contract';
import { BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../../../test/page-harness';
import { ImportPayersPage } from './import-payers-page';

const IMPORT = '/business/payment/payers/import';
const PREVIEW = `/api/businesses/${BUSINESS_ID}/payers/import/preview`;

const fake = fakeApiPerTest();

const preview: PayerImportPreview = {
  headers: ['Email'],
  suggestedMapping: { email: 'Email' },
  mapping: { email: 'Email' },
  rows: [],
  counts: { total: 0, new: 0, duplicate: 0, error: 0 },
};

describe('choosing the file to import', () => {
  it('names the button that removes the chosen file, and it removes it', async () => {
    fake.on('POST', PREVIEW, ok(preview));
    const u = userEvent.setup();
    const { container } = renderAt(IMPORT, { [IMPORT]: <ImportPayersPage /> });
    await screen.findByRole('heading', { name: 'Import payers' });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    const csv = 'Email\npat@payers.example\n';
    // jsdom's File cannot read itself back; the page reads the text it was given.
    await u.upload(input, Object.assign(new File([csv], 'payers.csv', { type: 'text/csv' }), { text: () => Promise.resolve(csv) }));
    expect(await screen.findByText('payers.csv')).toBeInTheDocument();
    await vi.waitFor(() => expect(fake.callsTo('POST', PREVIEW)).toHaveLength(1));

    const remove = screen.getByRole('button', { name: 'Remove the file' });
    await u.click(remove);
    expect(screen.queryByText('payers.csv')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove the file' })).toBeNull();
  });
});
