import { useCallback, useSyncExternalStore } from 'react';
import { ENTITY_TEMPLATE_NAMES, type EntityType, type UserBusinessSummary } from '@tay/contract';

/** Spec §9: the chosen template lives in local storage under `template`; the default is standard. */
export const TEMPLATE_STORAGE_KEY = 'template';
export const DEFAULT_TEMPLATE: EntityType = 'standard';

const listeners = new Set<() => void>();

function readStored(): string | null {
  try {
    return window.localStorage.getItem(TEMPLATE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export interface TemplateOption {
  value: EntityType;
  label: string;
}

/** Standard plus the business's own entity template (label entityTemplateName, value entityType). */
export function templateOptions(business: UserBusinessSummary | undefined): TemplateOption[] {
  const options: TemplateOption[] = [{ value: 'standard', label: ENTITY_TEMPLATE_NAMES.standard }];
  const entity = business?.entities[0];
  if (entity && entity.entityType !== 'standard') options.push({ value: entity.entityType as EntityType, label: entity.entityTemplateName });
  return options;
}

/** The template in use: the stored choice when this business offers it, otherwise standard. */
export function useTemplate(business: UserBusinessSummary | undefined) {
  const stored = useSyncExternalStore(subscribe, readStored, () => null);
  const options = templateOptions(business);
  const template = options.find((o) => o.value === stored)?.value ?? DEFAULT_TEMPLATE;
  const setTemplate = useCallback((value: EntityType) => {
    try {
      window.localStorage.setItem(TEMPLATE_STORAGE_KEY, value);
    } catch {
      // storage refused: the choice lasts until reload
    }
    listeners.forEach((listener) => listener());
  }, []);
  return { template, options, setTemplate };
}

/** Spec §2 headings. */
export function paymentsHeading(template: EntityType): string {
  return template === 'student' || template === 'healthCare' ? 'Requesting Payments' : 'Manage Transactions and Request to pay';
}
