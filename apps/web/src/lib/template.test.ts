import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserBusinessSummary } from '@tay/contract';
import { chooseTemplate, paymentsHeading, TEMPLATE_BY_BUSINESS_KEY, templateOptions, useTemplate } from './template';

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

  it('a school opened for the first time on a device opens on School, kept under "template"', () => {
    const { result } = renderHook(() => useTemplate(school));
    expect(result.current.template).toBe('student');
    expect(window.localStorage.getItem('template')).toBe('student');
    expect(JSON.parse(window.localStorage.getItem(TEMPLATE_BY_BUSINESS_KEY)!)).toEqual({ biz_1: 'student' });
  });

  it('a switch is stored under "template" and kept: the next load does not put the business’s template back', () => {
    const { result, unmount } = renderHook(() => useTemplate(school));
    act(() => result.current.setTemplate('standard'));
    expect(window.localStorage.getItem('template')).toBe('standard');
    expect(result.current.template).toBe('standard');
    unmount();
    const again = renderHook(() => useTemplate(school));
    expect(again.result.current.template).toBe('standard');
    act(() => again.result.current.setTemplate('student'));
    expect(window.localStorage.getItem('template')).toBe('student');
    expect(renderHook(() => useTemplate(school)).result.current.template).toBe('student');
  });

  it('a standard business stays on standard whatever another business left in "template"', () => {
    window.localStorage.setItem('template', 'healthCare');
    const standard: UserBusinessSummary = { ...school, businessId: 'biz_2', entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }] };
    const { result } = renderHook(() => useTemplate(standard));
    expect(result.current.template).toBe('standard');
    expect(window.localStorage.getItem('template')).toBe('standard');
  });

  it('each business keeps its own choice on the device: moving between them restores each', () => {
    const clinic: UserBusinessSummary = { ...school, businessId: 'biz_3', entities: [{ entityType: 'healthCare', entityTemplateName: 'Healthcare' }] };
    const { result, rerender } = renderHook(({ business }) => useTemplate(business), { initialProps: { business: school } });
    act(() => result.current.setTemplate('standard'));
    rerender({ business: clinic });
    expect(result.current.template).toBe('healthCare');
    expect(window.localStorage.getItem('template')).toBe('healthCare');
    rerender({ business: school });
    expect(result.current.template).toBe('standard');
    expect(window.localStorage.getItem('template')).toBe('standard');
  });

  it('falls back to standard when the choice kept for the business is not one it offers', () => {
    window.localStorage.setItem(TEMPLATE_BY_BUSINESS_KEY, JSON.stringify({ biz_1: 'healthCare' }));
    const { result } = renderHook(() => useTemplate(school));
    expect(result.current.template).toBe('standard');
  });

  it('chooseTemplate records a new business’s template before it is first opened', () => {
    chooseTemplate('biz_new', 'healthCare');
    expect(window.localStorage.getItem('template')).toBe('healthCare');
    expect(JSON.parse(window.localStorage.getItem(TEMPLATE_BY_BUSINESS_KEY)!)).toEqual({ biz_new: 'healthCare' });
  });

  it('names the payments heading per template', () => {
    expect(paymentsHeading('student')).toBe('Requesting Payments');
    expect(paymentsHeading('healthCare')).toBe('Requesting Payments');
    expect(paymentsHeading('standard')).toBe('Manage Transactions and Request to pay');
  });
});
