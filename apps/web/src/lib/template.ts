import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { ENTITY_TEMPLATE_NAMES, type EntityType, type UserBusinessSummary } from '@tay/contract';

/** Spec §9: the template in use lives in local storage under `template`; the default is standard. */
export const TEMPLATE_STORAGE_KEY = 'template';
/**
 * The template this device last used for each business (JSON, business id → template). A business
 * missing from it has never been opened here: it opens on its own template (a school on School),
 * and from then on the choice made here is kept, not overridden on every load.
 */
export const TEMPLATE_BY_BUSINESS_KEY = 'tay.templateByBusiness';
export const DEFAULT_TEMPLATE: EntityType = 'standard';

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

const readStored = () => read(TEMPLATE_STORAGE_KEY);
const readChoices = () => read(TEMPLATE_BY_BUSINESS_KEY);

function parseChoices(raw: string | null): Record<string, string> {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
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

/**
 * Makes `value` the template in use (`template`) and, for a business, this device's choice for it:
 * the dropdown's choice, and a new business's template when it is created.
 */
export function chooseTemplate(businessId: string | undefined, value: EntityType): void {
  try {
    window.localStorage.setItem(TEMPLATE_STORAGE_KEY, value);
    if (businessId) window.localStorage.setItem(TEMPLATE_BY_BUSINESS_KEY, JSON.stringify({ ...parseChoices(readChoices()), [businessId]: value }));
  } catch {
    // storage refused: the choice lasts until reload
  }
  listeners.forEach((listener) => listener());
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

/**
 * The template in use for the business: this device's choice for it; for a business never opened
 * on this device, its own entity template (standard for a standard business). The result is kept
 * under `template`, and the first open is remembered so a later switch stands.
 */
export function useTemplate(business: UserBusinessSummary | undefined) {
  const stored = useSyncExternalStore(subscribe, readStored, () => null);
  const choicesRaw = useSyncExternalStore(subscribe, readChoices, () => null);
  const options = templateOptions(business);
  const offered = (value: string | null | undefined): value is EntityType => options.some((o) => o.value === value);
  const businessId = business?.businessId;
  const remembered = businessId ? parseChoices(choicesRaw)[businessId] : undefined;
  const own = options.find((o) => o.value !== DEFAULT_TEMPLATE)?.value;
  let template: EntityType = DEFAULT_TEMPLATE;
  if (!business) template = offered(stored) ? stored : DEFAULT_TEMPLATE;
  else if (remembered !== undefined) template = offered(remembered) ? remembered : DEFAULT_TEMPLATE;
  else if (own) template = own;

  // A first open of a business with a template of its own is remembered; `template` follows the
  // business in use. Only when the business or its template changes, never on another tab's write:
  // two tabs on two businesses would otherwise overwrite each other's `template` for ever.
  const firstOpen = Boolean(businessId && remembered === undefined && own);
  const loaded = Boolean(business);
  useEffect(() => {
    if (firstOpen) chooseTemplate(businessId, template);
    else if (loaded && readStored() !== template) chooseTemplate(undefined, template);
  }, [firstOpen, businessId, loaded, template]);

  const setTemplate = useCallback((value: EntityType) => chooseTemplate(businessId, value), [businessId]);
  return { template, options, setTemplate };
}

/** Spec §2 headings. */
export function paymentsHeading(template: EntityType): string {
  return template === 'student' || template === 'healthCare' ? 'Requesting Payments' : 'Manage Transactions and Request to pay';
}
