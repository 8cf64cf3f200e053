import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserBusinessSummary } from '@tay/contract';
import { paymentsHeading, templateOptions, useTemplate } from './template';

const school: UserBusinessSummary = {
  businessId: 'biz_1',
  businessName: 'Acme',
  businessState: 'Approved',
  role: 'owner',
  payoutEnabled: 0,
  entities: [{ entityType: 'student', entityTemplateName: 'School' }],
  businessProfile: { logoUrl: null },
};

describe('template choice (docs/product.md §2, §9)', () => {
  it('offers Standard plus the business entity template', () => {
    expect(templateOptions(school)).toEqual([
      { value: 'standard', label: 'Standard' },
      { value: 'student', label: 'School' },
    ]);
    expect(templateOptions(undefined)).toEqual([{ value: 'standard', label: 'Standard' }]);
  });

  it('defaults to standard, stores the choice under "template" and restores it', () => {
    const { result, unmount } = renderHook(() => useTemplate(school));
    expect(result.current.template).toBe('standard');
    act(() => result.current.setTemplate('student'));
    expect(window.localStorage.getItem('template')).toBe('student');
    expect(result.current.template).toBe('student');
    unmount();
    const again = renderHook(() => useTemplate(school));
    expect(again.result.current.template).toBe('student');
  });

  it('falls back to standard when the stored template is not this business’s', () => {
    window.localStorage.setItem('template', 'healthCare');
    const { result } = renderHook(() => useTemplate(school));
    expect(result.current.template).toBe('standard');
  });

  it('names the payments heading per template', () => {
    expect(paymentsHeading('student')).toBe('Requesting Payments');
    expect(paymentsHeading('healthCare')).toBe('Requesting Payments');
    expect(paymentsHeading('standard')).toBe('Manage Transactions and Request to pay');
  });
});
