import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PayerImportPreview, PayerImportRow } from '@tay/contract';
import { ImportPreview } from './import-preview';

const payer = (over: Partial<PayerImportRow['payer']> = {}): PayerImportRow['payer'] => ({
  firstName: 'Nora',
  lastName: 'Quinn',
  companyName: '',
  displayName: 'Nora Quinn',
  email: 'nora@example.com',
  mobileNumber: '+14155552671',
  reference: 'N-1',
  ...over,
});

function preview(rows: PayerImportRow[]): PayerImportPreview {
  return {
    headers: ['First name', 'Last name', 'Email'],
    suggestedMapping: { firstName: 'First name', lastName: 'Last name', email: 'Email' },
    mapping: { firstName: 'First name', lastName: 'Last name', email: 'Email' },
    rows,
    counts: {
      total: rows.length,
      new: rows.filter((r) => r.status === 'new').length,
      duplicate: rows.filter((r) => r.status === 'duplicate').length,
      error: rows.filter((r) => r.status === 'error').length,
    },
  };
}

const ROWS: PayerImportRow[] = [
  { row: 2, status: 'new', errors: {}, note: null, payer: payer() },
  {
    row: 3,
    status: 'error',
    errors: { email: 'Enter a valid e-mail address.', firstName: 'Enter a first and last name, or a company name.' },
    note: null,
    payer: payer({ firstName: 'Solo', lastName: '', displayName: 'Solo', email: 'not-an-email', mobileNumber: null, reference: null }),
  },
  {
    row: 4,
    status: 'duplicate',
    errors: {},
    note: 'A payer with this e-mail address already exists.',
    payer: payer({ displayName: 'Al Ready', email: 'already@example.com' }),
  },
];

function renderPreview(rows: PayerImportRow[], props: { committing?: boolean; onCommit?: () => void } = {}) {
  return render(
    <MantineProvider>
      <ImportPreview preview={preview(rows)} committing={props.committing ?? false} onCommit={props.onCommit ?? (() => {})} />
    </MantineProvider>,
  );
}

const rowOfLine = (line: string) => screen.getAllByRole('row').find((r) => within(r).queryAllByRole('cell')[0]?.textContent === line)!;

describe('import preview', () => {
  it('shows each row’s result, the errors by field and line, and why duplicates are skipped', () => {
    renderPreview(ROWS);
    expect(screen.getByText('1 new')).toBeInTheDocument();
    expect(screen.getByText('1 duplicate')).toBeInTheDocument();
    expect(screen.getByText('1 error')).toBeInTheDocument();

    const bad = rowOfLine('3');
    expect(within(bad).getByText('Error')).toBeInTheDocument();
    expect(within(bad).getByText('E-mail: Enter a valid e-mail address.')).toBeInTheDocument();
    expect(within(bad).getByText('First name: Enter a first and last name, or a company name.')).toBeInTheDocument();
    expect(within(rowOfLine('4')).getByText('A payer with this e-mail address already exists.')).toBeInTheDocument();
    expect(within(rowOfLine('2')).getByText('Will be added')).toBeInTheDocument();
    expect(within(rowOfLine('2')).getByText('(415) 555-2671')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 3 of 3 Results')).toBeInTheDocument();
  });

  it('will not import while any row has an error, and says so', async () => {
    const onCommit = vi.fn();
    renderPreview(ROWS, { onCommit });
    expect(screen.getByRole('alert')).toHaveTextContent('1 row has errors');
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing is imported while any row has an error.');
    const button = screen.getByRole('button', { name: 'Import 1 payer' });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('imports when every row is fine, and shows progress while it runs', async () => {
    const onCommit = vi.fn();
    const ok = ROWS.filter((r) => r.status !== 'error');
    const { unmount } = renderPreview(ok, { onCommit });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('1 duplicate is skipped.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 payer' }));
    expect(onCommit).toHaveBeenCalledOnce();
    unmount();

    renderPreview(ok, { committing: true });
    expect(screen.getByText('Importing 1 payer…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Importing payers' })).toBeInTheDocument();
  });

  it('can show only the rows with errors', async () => {
    renderPreview(ROWS);
    await userEvent.click(screen.getAllByLabelText('Show rows')[0]!);
    await userEvent.click(await screen.findByRole('option', { name: 'Errors', hidden: true }));
    expect(screen.getByText('Showing 1 to 1 of 1 Results')).toBeInTheDocument();
    expect(screen.queryByText('Will be added')).toBeNull();
    expect(screen.getByText('E-mail: Enter a valid e-mail address.')).toBeInTheDocument();
  });
});
