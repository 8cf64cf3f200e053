import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EntityType } from '@tay/contract';
import { business } from '../../../test/fixtures';
import { answerSignedIn, fakeApiPerTest, ownBusiness, renderAt, shownLocation } from '../../../test/page-harness';
import { CreateBusinessPage } from './create-business-page';

const fake = fakeApiPerTest();

/** The API creates the business with the template chosen, and the user then has it. */
function answerCreate(entityType: EntityType, entityTemplateName: string) {
  const created = business({ businessId: 'biz_new', businessName: 'Sunrise Tutoring', entities: [{ entityType, entityTemplateName }] });
  fake.on('POST', '/api/businesses', {
    status: 201,
    // A raw answer, so the configuration's newer fields can ride along whatever the fixture holds.
    json: { status: 'Success', data: { ...created, config: { ...created.config, confirmAboveCents: 1_000_000, amountCeilingCents: 1_000_000_000 } } },
  });
  answerSignedIn(fake, [
    ownBusiness({ businessId: 'biz_new', businessName: 'Sunrise Tutoring', businessState: 'Incomplete', entities: [{ entityType, entityTemplateName }] }),
  ]);
}

const open = () => renderAt('/business/profile', { '/business/profile': <CreateBusinessPage />, '/business/home': <p>Home</p> });

describe('creating a business (docs/product.md §1, §2)', () => {
  it('with the School template, the portal’s template becomes School (kept under "template") for that business', async () => {
    answerCreate('student', 'School');
    const u = userEvent.setup();
    open();
    await u.type(screen.getByLabelText('Business name'), 'Sunrise Tutoring');
    await u.click(screen.getByRole('radio', { name: /School/ }));
    await u.click(screen.getByRole('button', { name: 'Create business' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/home'));
    expect(fake.callsTo('POST', '/api/businesses')[0]!.body).toEqual({ businessName: 'Sunrise Tutoring', entityType: 'student' });
    expect(window.localStorage.getItem('template')).toBe('student');
    expect(JSON.parse(window.localStorage.getItem('tay.templateByBusiness')!)).toEqual({ biz_new: 'student' });
  });

  it('with the Healthcare template, Healthcare', async () => {
    answerCreate('healthCare', 'Healthcare');
    const u = userEvent.setup();
    open();
    await u.type(screen.getByLabelText('Business name'), 'Cedar Physio');
    await u.click(screen.getByRole('radio', { name: /Healthcare/ }));
    await u.click(screen.getByRole('button', { name: 'Create business' }));
    await waitFor(() => expect(shownLocation()).toBe('/business/home'));
    expect(window.localStorage.getItem('template')).toBe('healthCare');
  });
});
