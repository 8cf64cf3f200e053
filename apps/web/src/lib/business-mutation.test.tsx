import { useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from './api-client';
import { AUDITED_READ, useBusinessMutation } from './business-mutation';
import { apiError, BUSINESS_ID, fakeApiPerTest, ok, renderAt } from '../test/page-harness';

const fake = fakeApiPerTest();
const LIST = `/api/businesses/${BUSINESS_ID}/things`;
const RECORD = `/api/businesses/${BUSINESS_ID}/things/t_1`;

function Things({ afterSuccessOnly }: { afterSuccessOnly: boolean }) {
  const list = useQuery({ queryKey: ['Things', BUSINESS_ID, 'list'], queryFn: () => api.get<{ data: number }>('/businesses/' + BUSINESS_ID + '/things') });
  const record = useQuery({
    queryKey: ['Things', BUSINESS_ID, 'record'],
    queryFn: () => api.get<{ data: number }>('/businesses/' + BUSINESS_ID + '/things/t_1'),
    ...AUDITED_READ,
  });
  const change = useBusinessMutation(
    (id, name: string) => api.post<unknown>(`/businesses/${id}/things`, { name }),
    (businessId) => [['Things', businessId ?? 'none']],
    { afterSuccessOnly },
  );
  return (
    <>
      <p>{list.data && record.data ? 'read' : 'reading'}</p>
      <button type="button" onClick={() => change.mutate('a')}>
        Change
      </button>
    </>
  );
}

describe('a change to the business', () => {
  it('sends it for the selected business, then reads the area again, but never an audited read', async () => {
    fake.on('GET', LIST, ok(1));
    fake.on('GET', RECORD, ok(1));
    fake.on('POST', LIST, ok({}));
    renderAt('/t', { '/t': <Things afterSuccessOnly /> });
    await screen.findByText('read');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(fake.callsTo('GET', LIST)).toHaveLength(2));
    expect(fake.callsTo('POST', LIST)[0]!.body).toEqual({ name: 'a' });
    expect(fake.callsTo('GET', RECORD)).toHaveLength(1);
  });

  it('a refused change reads nothing again, unless the area asks to read again whatever the outcome', async () => {
    fake.on('GET', LIST, ok(1));
    fake.on('GET', RECORD, ok(1));
    fake.on('POST', LIST, apiError(409, 'CONFLICT', 'No.'));
    const first = renderAt('/t', { '/t': <Things afterSuccessOnly /> });
    await screen.findByText('read');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(fake.callsTo('POST', LIST)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.callsTo('GET', LIST)).toHaveLength(1);
    first.unmount();

    renderAt('/t', { '/t': <Things afterSuccessOnly={false} /> });
    await screen.findByText('read');
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(fake.callsTo('GET', LIST)).toHaveLength(3));
  });
});
